// A connection opened ahead is the one the first request uses, and one that fails or is never used
// goes away without a word.
import { Agent, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { post, preconnectTo } from "../../../src/ai/providers/http-post.js";
import { parking, preconnect } from "../../../src/ai/providers/preconnect.js";

let server: Server | undefined;
afterEach(async () => {
	server?.closeAllConnections();
	await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
	server = undefined;
});

/** A server answering every POST with "ok", counting connections. */
async function listen(): Promise<{ url: string; connections: () => number }> {
	let connections = 0;
	server = createServer((request, response) => {
		request.resume();
		request.on("end", () => response.end("ok"));
	});
	server.on("connection", () => connections++);
	await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

const until = async (check: () => boolean) => {
	while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("preconnect", () => {
	it("the first request goes over the connection opened ahead, not a new one", async () => {
		const { url, connections } = await listen();
		expect(preconnectTo(`${url}/v1`)).toBe(true);
		await until(() => connections() === 1);
		// One parked already: no second connection.
		expect(preconnectTo(`${url}/v1`)).toBe(false);
		const response = await post(`${url}/v1/chat`, {}, "{}", new AbortController().signal);
		expect(await response.text()).toBe("ok");
		expect(connections()).toBe(1);
	});

	it("only parks for an agent that takes it, and only for http(s)", () => {
		expect(preconnect(new Agent(), "http://127.0.0.1:9/")).toBe(false);
		const agent = parking(new Agent());
		expect(preconnect(agent, "file:///etc")).toBe(false);
		expect(preconnect(agent, "not a url")).toBe(false);
		expect(preconnect(agent, "http://localhost:0")).toBe(false);
		agent.destroy();
	});

	it("a dead server: nothing thrown or printed, the connection dropped", async () => {
		const { url } = await listen();
		server?.close();
		server = undefined;
		const agent = parking(new Agent({ keepAlive: true }));
		expect(preconnect(agent, url)).toBe(true);
		// Refused and dropped: a new preconnect is accepted again.
		await until(() => preconnect(agent, url));
		agent.destroy();
	});
});
