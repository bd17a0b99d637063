import { describe, expect, it } from "vitest";
import { BUILTIN_MODELS } from "../../../src/ai/models.js";
import { streamProviderRequest } from "../../../src/ai/providers/provider-request.js";
import type { Model, ResponseInfo } from "../../../src/ai/types.js";
import { scriptedServerPerTest } from "../../helpers/scripted-server-per-test.js";
import { sse } from "../../helpers/sse-server.js";

// Any real model will do: the request step only hands it to the caller's hooks.
const model = BUILTIN_MODELS[0] as Model;

const server = scriptedServerPerTest();

const request = () => ({ providerName: "Test", url: `${server.url}/x`, headers: { "x-k": "v" }, body: { original: true } });

async function readAll(batches: AsyncGenerator<{ data: string }[]>): Promise<string[]> {
	const out: string[] = [];
	for await (const batch of batches) for (const e of batch) out.push(e.data);
	return out;
}

describe("streamProviderRequest", () => {
	it("sends the body onPayload returns, and the original one when it returns undefined", async () => {
		server.enqueue({ kind: "sse", chunks: [sse([{ n: 1 }])] }, { kind: "sse", chunks: [sse([{ n: 2 }])] });
		const seen: unknown[] = [];
		const replaced = await streamProviderRequest(model, { onPayload: async (body) => ({ wrapped: body }) }, request());
		expect(await readAll(replaced)).toEqual(['{"n":1}']);
		const kept = await streamProviderRequest(model, { onPayload: (body, m) => void seen.push(body, m.id) }, request());
		expect(await readAll(kept)).toEqual(['{"n":2}']);
		expect(server.requests.map((r) => r.body)).toEqual([{ wrapped: { original: true } }, { original: true }]);
		expect(seen).toEqual([{ original: true }, model.id]);
		expect(server.requests[0]?.headers["x-k"]).toBe("v");
	});

	it("sends nothing until the events are read, then passes the response to onResponse", async () => {
		server.enqueue({ kind: "sse", chunks: [sse([{ n: 1 }])], headers: { "x-r": "1" } });
		const responses: ResponseInfo[] = [];
		const events = await streamProviderRequest(model, { onResponse: (r) => void responses.push(r) }, request());
		expect(server.requests).toHaveLength(0);
		await readAll(events);
		expect(server.requests).toHaveLength(1);
		expect(responses[0]).toMatchObject({ status: 200, headers: { "x-r": "1" } });
	});

	it("gives up after the caller's retry limit", async () => {
		server.enqueue({ kind: "status", status: 503, body: '{"error":{"message":"busy"}}' });
		const events = await streamProviderRequest(model, { maxRetries: 0 }, request());
		await expect(readAll(events)).rejects.toThrow(`Test HTTP 503 from ${server.url.slice("http://".length)}/x: busy`);
		expect(server.requests).toHaveLength(1);
	});
});
