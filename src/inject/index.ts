// The injection decision (README, Forward; Model and MCP endpoints): fnox's proxy semantics as one
// pure decision over the namespace's prepared plan and a request read once, then one fill; the model
// and MCP refusal, and the agent's registrations. Nothing here sends, stores or decrypts.
export type { Endpoint } from './endpoints.ts';
export { type InEffect, inEffect } from './in-effect.ts';
export { type Refusal, decide } from './decide.ts';
export { fill } from './fill.ts';
export { mcpServerUrl, underServerUrl } from './mcp.ts';
export { MODEL_NOWHERE, modelBinding, providerKey } from './model.ts';
export { type InjectionPlan, type PlanRecord, boundEndpoints, planRecord } from './plan.ts';
export { readUrl } from './request.ts';
export { type TestRequest, testVerdict } from './verdict.ts';
export {
  type Registered,
  checkRegistration,
  checkUnregister,
  count as registeredCount,
  emptyRegistered,
  mergeRegistered,
  removeRegistered,
  scrubbedRegistered,
} from './registered.ts';
