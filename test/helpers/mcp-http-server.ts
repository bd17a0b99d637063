// The fixture MCP server over streamable HTTP on 127.0.0.1 (one session, as a single client uses it).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-expect-error the fixture is plain JavaScript, so the stdio server runs under node without a build
import { createFixtureServer } from "../fixtures/mcp/fixture-server.mjs";

export interface McpHttpFixture {
	url: string;
	/** Headers of every request, in order. */
	requests: IncomingMessage["headers"][];
	close(): Promise<void>;
}

export async function startMcpHttpServer(marker?: string): Promise<McpHttpFixture> {
	const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
	await createFixtureServer({ name: "fixture-http", marker }).connect(transport);
	const requests: IncomingMessage["headers"][] = [];
	const http = createServer((req, res) => {
		requests.push(req.headers);
		void transport.handleRequest(req, res);
	});
	await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
	const { port } = http.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		requests,
		close: async () => {
			await transport.close();
			http.closeAllConnections();
			await new Promise<void>((resolve) => http.close(() => resolve()));
		},
	};
}
