// The client side of `elicitation/create`: reads the request (elicitation.ts), asks through the
// session's handler, and answers in MCP's shape. A request that cannot be shown honestly, or one that
// arrives where nobody can answer, is declined.
import { type ElicitAnswer, type McpElicitation, type McpElicitHandler, parseElicitation } from "./elicitation.js";

export type { McpElicitHandler } from "./elicitation.js";

export async function answerElicitation(
	server: string,
	params: Record<string, unknown>,
	signal: AbortSignal,
	elicit: McpElicitHandler | undefined,
): Promise<ElicitAnswer> {
	if (!elicit) return { action: "decline" };
	let request: McpElicitation;
	try {
		request = parseElicitation(server, params);
	} catch (error) {
		elicit.refused(server, (error as Error).message);
		return { action: "decline" };
	}
	return elicit.ask(request, signal);
}
