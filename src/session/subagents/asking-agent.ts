// Which agent a tool call belongs to, carried along the async path of a sub-agent's permission check:
// the gate (src/permissions) is shared by every agent of the session and knows nothing of agents, so
// the approval channel reads the asking agent from here and names it in the request.
import { AsyncLocalStorage } from "node:async_hooks";

export interface AskingAgent {
	id: string;
	name: string;
}

const current = new AsyncLocalStorage<AskingAgent>();

/** Runs `check` (a sub-agent's permission check) with `agent` as the asker. */
export function asAgent<T>(agent: AskingAgent, check: () => T): T {
	return current.run(agent, check);
}

/** The sub-agent whose check is running; undefined for the main agent. */
export function askingAgent(): AskingAgent | undefined {
	return current.getStore();
}
