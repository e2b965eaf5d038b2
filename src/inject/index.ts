// The forward decision (README, Forward; Model and MCP endpoints): fnox's proxy semantics as pure
// functions of a request head and the namespace's plan, the model and MCP refusal, MCP requests,
// and the agent's registrations. Nothing here sends, stores or decrypts.
export {
  ENDPOINT_REASON,
  type Endpoint,
  broadSegments,
  endpointsUnder,
  entriesByDomain,
  hostMatches,
  isVersionSegment,
  matchesEndpoint,
  normalizeHost,
  pathUnder,
  ruleCoveredBy,
  ruleOnlyReachesEndpoints,
  segmentMatches,
  toEndpoint,
} from './endpoints.ts';
export { type ForwardPlan, type InEffect, endpointReason, inEffect, withoutEndpointRules } from './in-effect.ts';
export {
  type ForwardDecision,
  type ForwardInput,
  type InjectRecord,
  type PolicyRule,
  type TestContext,
  type TestRequest,
  type Use,
  basicCredentials,
  clean,
  decideForward,
  globMatches,
  headPlaceholders,
  headRefusal,
  inertReason,
  isKernelMcpUrl,
  ruleAllows,
  testVerdict,
} from './injector.ts';
export { PathReader, globMatchesWhole, wildcardMatches } from './match.ts';
export {
  MODEL_NOWHERE,
  type ModelDecision,
  type ModelInput,
  type ModelRecord,
  type ModelTarget,
  type ModelUse,
  decideModel,
  modelBinding,
  modelBase,
  modelRequest,
  providerKey,
} from './model.ts';
export { type McpDecision, type McpInput, type McpRecord, SECRET_TO_MCP, decideMcp, mcpEndpoint, mcpRequest, mcpServerUrl, underServerUrl } from './mcp.ts';
export {
  type Registered,
  checkRegistration,
  checkUnregister,
  count as registeredCount,
  emptyRegistered,
  mergeRegistered,
  refusedEndpoints,
  removeRegistered,
  scrubbedRegistered,
} from './registered.ts';
export { hasMalformedEscape, isAmbiguousPath, percentDecode, rawPath } from './urls.ts';
