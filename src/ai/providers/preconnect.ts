// The first request of a process would otherwise open its connection when the user presses Enter: a
// TCP handshake (and for https a TLS one, ~2 round trips and a few ms of CPU) before the first byte of
// the reply can come. Browsers and Claude Code preconnect; so does this: while the user types, one
// connection is opened to the current model's host (only ever a host the user configured) and parked
// here; the pool's agent takes it for its next new connection to that host and port instead of dialing
// (`parking`, installed on http-post.ts's agents). A parked connection is closed after PARK_MS unused
// (the pool's own idle timeout: a server that keeps idle connections shorter would race a request on
// it), when it closes or fails (silently: a dead server prints nothing and delays nothing), and never
// keeps the process alive (unref'd).
import type { Agent } from "node:http";
import { isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { urlToHttpOptions } from "node:url";

/** How long a parked connection waits for a request: the agents' idle timeout (http-post.ts). */
export const PARK_MS = 4000;

interface Parked {
	socket: Socket;
	timer: ReturnType<typeof setTimeout>;
	drop(): void;
}

type CreateConnection = (options: Record<string, unknown>, callback?: (error: Error | null, socket: Duplex) => void) => Duplex | undefined;
type ParkingAgent = Omit<Agent, "createConnection"> & { createConnection: CreateConnection; [PARKED]?: Map<string, Parked> };

const PARKED = Symbol("parked connections");

const keyOf = (host: unknown, port: unknown): string => `${String(host)}:${String(port)}`;

/**
 * Makes `agent` take a parked connection (when one to the request's host and port is there and still
 * open) for a new connection instead of dialing. Returns the agent.
 */
export function parking<A extends Agent>(agent: A): A {
	const self = agent as unknown as ParkingAgent;
	const create = self.createConnection as CreateConnection;
	const parked = new Map<string, Parked>();
	self[PARKED] = parked;
	self.createConnection = function (this: ParkingAgent, options, callback) {
		const key = keyOf(options.host, options.port);
		const spare = parked.get(key);
		if (spare) {
			spare.drop();
			const socket = spare.socket;
			if (!socket.destroyed && socket.writable && socket.readable) {
				// In use now: it keeps the process alive while the request runs, as a dialed one does.
				socket.ref();
				return socket;
			}
		}
		return create.call(this, options, callback);
	};
	return agent;
}

/**
 * Opens a connection to `url`'s host through `agent` (its own `createConnection`: for https the TLS
 * handshake and session cache are the agent's) and parks it, unless one is parked there already.
 * Returns false when nothing was opened.
 */
export function preconnect(agent: Agent, url: string): boolean {
	const self = agent as unknown as ParkingAgent;
	const parked = self[PARKED];
	let target: URL;
	try {
		target = new URL(url);
	} catch {
		return false;
	}
	const https = target.protocol === "https:";
	if (!parked || (!https && target.protocol !== "http:")) return false;
	// The host as a request's options name it (an IPv6 address without its brackets); no path: to
	// net.connect a path is a Unix socket.
	const host = urlToHttpOptions(target).hostname;
	const port = target.port ? Number(target.port) : https ? 443 : 80;
	const key = keyOf(host, port);
	// Port 0: a stand-in model's address (the faux provider's), nothing to connect to.
	if (port === 0 || parked.has(key)) return false;
	const options: Record<string, unknown> = { host, port };
	// As Node's https agent names the server for SNI when the request has no Host header of its own.
	if (https && host && !isIP(host)) options.servername = host;
	let socket: Socket;
	try {
		// The TLS session it makes is cached under the agent's name for the host, as for a request's.
		if (https) options._agentKey = self.getName(options as Parameters<Agent["getName"]>[0]);
		socket = self.createConnection(options) as Socket;
	} catch {
		return false;
	}
	const drop = () => {
		clearTimeout(entry.timer);
		socket.off("error", ignore);
		socket.off("close", drop);
		if (parked.get(key) === entry) parked.delete(key);
	};
	const entry: Parked = {
		socket,
		drop,
		timer: setTimeout(() => {
			drop();
			socket.destroy();
		}, PARK_MS),
	};
	entry.timer.unref?.();
	socket.on("error", ignore);
	socket.once("close", drop);
	socket.unref();
	parked.set(key, entry);
	return true;
}

function ignore(): void {
	// a parked connection that fails is simply dropped: the request dials as it would have
}
