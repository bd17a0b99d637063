// The feature server (test/fixtures/mcp/feature-server.mjs, the SDK's McpServer) over streamable HTTP
// on 127.0.0.1, one session, as a single client uses it.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
// @ts-expect-error the fixture is plain JavaScript, so the stdio server runs under node without a build
import { createFeatureServer } from "../fixtures/mcp/feature-server.mjs";

export interface McpFeatureHttp {
	url: string;
	close(): Promise<void>;
}

export async function startFeatureHttpServer(options: { tools?: number } = {}): Promise<McpFeatureHttp> {
	const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
	await createFeatureServer(options).connect(transport);
	const http = createServer((req, res) => void transport.handleRequest(req, res));
	await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
	const { port } = http.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		close: async () => {
			await transport.close();
			http.closeAllConnections();
			await new Promise<void>((resolve) => http.close(() => resolve()));
		},
	};
}
