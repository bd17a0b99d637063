// HTTP servers on 127.0.0.1 for one test each: `serve` starts one and gives its base URL; every server
// still open is closed after the test (its kept-alive sockets too), or earlier by `closeAll`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function httpServersPerTest(): { serve: (handler: Handler) => Promise<string>; closeAll: () => Promise<void> } {
	const servers: Server[] = [];
	const closeAll = async () => {
		for (const s of servers.splice(0)) {
			s.closeAllConnections();
			await new Promise((r) => s.close(r));
		}
	};
	afterEach(closeAll);
	const serve = async (handler: Handler) => {
		const server = createServer(handler);
		servers.push(server);
		await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
		return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	};
	return { serve, closeAll };
}
