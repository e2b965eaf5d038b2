// The injection decision (README, Forward; Model and MCP endpoints): fnox's proxy semantics as one
// pure decision over the namespace's prepared plan and a request read once, then one fill; the model
// and MCP refusal, and the agent's registrations. Nothing here sends, stores or decrypts.
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
export { type InEffect, endpointReason, inEffect, withoutEndpointRules } from './in-effect.ts';
export { basicCredentials } from './basic.ts';
export {
  type Allowed,
  type Decision,
  type HeaderFill,
  type ModelUse,
  type Moment,
  type Refusal,
  type Target,
  type Use,
  clean,
  decide,
  inertReason,
  ruleAllows,
  targetOf,
} from './decide.ts';
export { fill } from './fill.ts';
export { PathReader, type PreparedGlob, globMatches, globMatchesWhole, prepareGlob, preparedMatches, wildcardMatches } from './match.ts';
export { SECRET_TO_MCP, mcpServerUrl, underServerUrl } from './mcp.ts';
export { MODEL_KEY_HEADERS, MODEL_NOWHERE, type ModelTarget, modelBinding, modelRequest, providerKey } from './model.ts';
export {
  type Binding,
  type InjectionPlan,
  type PlanRecord,
  type PolicyPlan,
  type PolicyRule,
  type PreparedRule,
  type PreparedServer,
  boundEndpoints,
  planRecord,
  preparePolicy,
} from './plan.ts';
export { type InjectRequest, checkHead, isKernelMcpUrl, kernelForm, readUrl } from './request.ts';
export { type TestRequest, testVerdict } from './verdict.ts';
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
