// The client's face: what an embedder imports (`@ai-ecoverse/slicc-vault/client`, or `client.js` at the vault origin).
export * from './client.ts';
