// A heartbeat in the test page: a message to itself, again and again, each noting how long it
// waited. `stop()` answers the longest wait, so a test sees whether some work held the thread.
export function heartbeat(): { stop(): number } {
  const heart = new MessageChannel();
  let finished = false;
  let last = performance.now();
  let longest = 0;
  heart.port2.onmessage = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (!finished) heart.port1.postMessage(null);
  };
  heart.port1.postMessage(null);
  return {
    stop() {
      finished = true;
      heart.port1.close();
      return longest;
    },
  };
}
