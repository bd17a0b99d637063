// Errors a request handler answers with: a JSON-RPC code and a one-line message. acp-mode.ts turns them
// into the SDK's RequestError (the SDK is loaded only in acp mode, so the other modules import its types only).

export class AcpError extends Error {
	constructor(
		readonly code: number,
		message: string,
		readonly data?: unknown,
	) {
		super(message);
	}
}

/** -32002, with `data.sessionId` as the protocol expects for a session this connection does not have. */
export const sessionNotFound = (sessionId: string) => new AcpError(-32002, "Resource not found", { sessionId });
export const invalidParams = (detail: string, data?: unknown) => new AcpError(-32602, `Invalid params: ${detail}`, data);
export const invalidRequest = (detail: string) => new AcpError(-32600, `Invalid request: ${detail}`);
export const internalError = (detail: string) => new AcpError(-32603, `Internal error: ${detail}`);
