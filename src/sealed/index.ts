// /dev/sealed (README, /dev/sealed): the kernel's requests, parsed at the boundary and answered
// through the narrow port `SealedVault`.
export { answerSealed } from './answer.ts';
export { parseSealedRequest } from './parse.ts';
