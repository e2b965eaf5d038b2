// The agent's ops (README, The agent's ops): parsed at the boundary, answered by one session per
// agent port through the narrow port `AgentVault`. Nothing on this port ever carries a value.
export { AGENT_OPS, AGENT_PARSERS, type OpParser, type OpTable, parseAgentCommand } from './parse.ts';
export { AgentSession } from './session.ts';
