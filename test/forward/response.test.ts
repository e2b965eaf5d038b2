// The forwarded response's relay (README, Forward and Limits) built directly: whatever size a body
// chunk comes in, it is scrubbed in slices that give the thread back, and the parts keep their order.
import { expect } from '@open-wc/testing';
import type { ResponsePart } from '../../src/contract.ts';
import { relayResponse } from '../../src/forward/response.ts';
import { compileScrubber } from '../../src/scrub/index.ts';
import { heartbeat } from '../helpers/heartbeat.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const value = 'relay-value-0123456789abcdef';
const placeholder = 'fnox_proxy_0000000000000000000000a1';

describe('the response relay', () => {
  it('scrubs a 32 MiB body chunk in slices: a heartbeat of the page never waits for the whole chunk', async function () {
    this.timeout(60_000);
    const { port1: bios, port2: vault } = new MessageChannel();
    relayResponse(vault, compileScrubber([{ name: 'RELAYED', placeholder, value }]));
    const chunk = new Uint8Array(32 * 2 ** 20).fill(0x61);
    chunk.set(enc.encode(value), 16 * 2 ** 20);
    const size = chunk.length;
    const back: ResponsePart[] = [];
    const done = new Promise<void>((resolve) => {
      bios.onmessage = ({ data }) => {
        back.push(data);
        if (data.op === 'end') resolve();
      };
    });
    const heart = heartbeat();
    const start = performance.now();
    bios.postMessage({ op: 'response', status: 200, statusText: 'OK', url: 'https://api.example.com/', headers: [] });
    // Transferred, as bios sends a body it read: a copy of 32 MiB holds WebKit's thread for 100 ms and more on each side.
    bios.postMessage({ op: 'body', chunk }, [chunk.buffer]);
    bios.postMessage({ op: 'end' });
    await done;
    const longest = heart.stop();
    const totalMs = performance.now() - start;
    // Scrubbed in one piece, the chunk holds the heartbeat for most of it (180 ms of 256 here); in
    // slices, the longest wait is taking the message and collecting (45 to 63 ms of 277 to 321).
    expect(longest, `the heartbeat waited ${longest.toFixed(0)} ms at most of ${totalMs.toFixed(0)}`).to.be.below(totalMs / 2);
    // The head, the chunk's release piece by piece, the held tail at the end.
    expect(back.map((p) => p.op)).to.deep.equal(['response', ...back.slice(1, -1).map(() => 'body'), 'end']);
    expect(back.length).to.be.above(3);
    const parts = back.flatMap((p) => (p.op === 'body' ? [p.chunk] : []));
    const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      body.set(p, at);
      at += p.length;
    }
    expect(body.length).to.equal(size - value.length + placeholder.length);
    expect(dec.decode(body.subarray(16 * 2 ** 20 - 4, 16 * 2 ** 20 + placeholder.length + 4))).to.equal(`aaaa${placeholder}aaaa`);
    bios.close();
  });
});
