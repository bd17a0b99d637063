// `rudder --mode rpc` (built CLI): JSON-line commands on stdin, one response per command, events as
// lines; steering reaches the next request; abort ends the run and closes the connection.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, textRecords, toolCallRecords } from "../../helpers/openai-chunks.js";
import { cliPerTest, type LineClient } from "../../helpers/rudder-cli.js";
import type { ScriptedServer } from "../../helpers/sse-server.js";

const LONG = 90_000;
const cli = cliPerTest();

async function start(): Promise<{ server: ScriptedServer; client: LineClient }> {
	const { server } = await cli.setUp({ modelIds: ["mock-1", "mock-2"] });
	return { server, client: cli.rpc() };
}

const response = (id: string) => (line: any) => line.type === "response" && line.id === id;

/** Waits until the server has sent `n` requests (the scripted server records them on arrival). */
async function requestsReach(server: ScriptedServer, n: number): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (server.requests.length < n) {
		if (Date.now() > deadline) throw new Error(`only ${server.requests.length} requests arrived`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

describe("--mode rpc", () => {
	it("get_state shows the run phase: idle, retrying with its reason while a 429 is waited out, idle again", { timeout: LONG }, async () => {
		const { server, client } = await start();
		server.enqueue(
			{ kind: "status", status: 429, body: '{"error":{"message":"slow down"}}', headers: { "retry-after-ms": "1500" } },
			{ kind: "sse", chunks: [textBody("after the wait")] },
		);
		client.send({ id: "s0", type: "get_state" });
		expect((await client.waitFor(response("s0"))).data.phase).toEqual({ kind: "idle" });
		client.send({ id: "p1", type: "prompt", message: "hello" });
		const retrying = await client.waitFor((l) => l.type === "phase_changed" && l.phase.kind === "retrying");
		expect(retrying.phase).toMatchObject({ attempt: 2, delayMs: 1500, status: 429, reason: "429 rate limited" });
		client.send({ id: "s1", type: "get_state" });
		expect((await client.waitFor(response("s1"))).data.phase).toMatchObject({ kind: "retrying", status: 429 });
		await client.waitFor((l) => l.type === "agent_end");
		await client.waitFor((l) => l.type === "phase_changed" && l.phase.kind === "idle");
		client.send({ id: "s3", type: "get_state" });
		expect((await client.waitFor(response("s3"))).data.phase).toEqual({ kind: "idle" });
	});

	it("prompt streams events and get_state answers", { timeout: LONG }, async () => {
		const { server, client } = await start();
		server.enqueue({ kind: "sse", chunks: [textBody("Hi from mock.")] });
		client.send({ id: "s0", type: "get_state" });
		const before = await client.waitFor(response("s0"));
		expect(before).toMatchObject({ command: "get_state", success: true, data: { isStreaming: false, messageCount: 0 } });
		expect(before.data.model).toMatchObject({ provider: "mock", id: "mock-1" });

		client.send({ id: "p1", type: "prompt", message: "hello" });
		expect(await client.waitFor(response("p1"))).toEqual({ type: "response", id: "p1", command: "prompt", success: true });
		const end = await client.waitFor((l) => l.type === "agent_end");
		expect(end.messages.at(-1).content).toEqual([{ type: "text", text: "Hi from mock." }]);

		client.send({ id: "s1", type: "get_state" });
		expect((await client.waitFor(response("s1"))).data).toMatchObject({ isStreaming: false, messageCount: 2 });
		client.send({ id: "m1", type: "get_messages" });
		const messages = (await client.waitFor(response("m1"))).data.messages;
		expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);

		expect((await client.end()).code).toBe(0);
	});

	it("reads commands as strict JSON lines: U+2028/U+2029 inside a string, CRLF, a last line without LF", { timeout: LONG }, async () => {
		const { server, client } = await start();
		server.enqueue({ kind: "sse", chunks: [textBody("ok")] });
		// Raw, as JSON.stringify writes them. node:readline cuts this command in three on Node 22+ (Node 20
		// reads it whole), so this fails there with the old reader; test/modes/rpc/jsonl.test.ts pins the rule itself.
		const message = "line\u2028sep\u2029para";
		client.send(`${JSON.stringify({ id: "u", type: "prompt", message })}\r`);
		expect(await client.waitFor(response("u"))).toMatchObject({ success: true });
		await client.waitFor((l) => l.type === "agent_end");
		expect(JSON.stringify(server.requests[0].body.messages)).toContain(JSON.stringify(message).slice(1, -1));
		expect(client.lines.some((l) => l.command === "parse")).toBe(false);
		client.sendRaw(JSON.stringify({ id: "last", type: "get_state" }));
		const state = client.end();
		expect((await state).stdout).toContain('"id":"last"');
	});

	it("answers malformed and unknown lines with an error response and keeps going", { timeout: LONG }, async () => {
		const { client } = await start();
		client.send("{not json");
		const parse = await client.waitFor((l) => l.type === "response" && l.command === "parse");
		expect(parse.success).toBe(false);
		expect(parse.error).toMatch(/^Failed to parse command: /);
		client.send({ id: 7, type: "fly_to_the_moon" });
		expect(await client.waitFor((l) => l.type === "response" && l.id === 7)).toEqual({
			type: "response",
			id: 7,
			command: "fly_to_the_moon",
			success: false,
			error: "Unknown command: fly_to_the_moon",
		});
		client.send({ id: "bad", type: "prompt" });
		expect(await client.waitFor(response("bad"))).toMatchObject({ success: false, error: '"prompt" needs a string "message"' });
		client.send({ id: "lvl", type: "set_thinking_level", level: "enormous" });
		expect(await client.waitFor(response("lvl"))).toMatchObject({ success: false });
		client.send({ id: "mdl", type: "set_model", provider: "mock", modelId: "missing" });
		expect(await client.waitFor(response("mdl"))).toMatchObject({ success: false, error: "Model not found: mock/missing" });
		// A prefix of a real id is not a match (pattern matching used to pick mock-1 here).
		client.send({ id: "near", type: "set_model", provider: "mock", modelId: "mock" });
		expect(await client.waitFor(response("near"))).toMatchObject({ success: false, error: "Model not found: mock/mock" });
		client.send({ id: "proto", type: "__proto__" });
		expect(await client.waitFor(response("proto"))).toMatchObject({ success: false, error: "Unknown command: __proto__" });
		client.send({ id: "alive", type: "get_state" });
		expect(await client.waitFor(response("alive"))).toMatchObject({ success: true });
		expect((await client.end()).code).toBe(0);
	});

	it("steering while streaming reaches the model in the next request", { timeout: LONG }, async () => {
		const { server, client } = await start();
		// The first answer streams slowly so the steer arrives mid-stream.
		const pieces = Array.from({ length: 60 }, (_, i) => `word${i} `);
		server.enqueue({ kind: "sse", chunks: textRecords(pieces), delayMs: 100 }, { kind: "sse", chunks: [textBody("Switching to French.")] });
		client.send({ id: "p", type: "prompt", message: "write a long poem" });
		await client.waitFor((l) => l.type === "message_update" && l.assistantMessageEvent.type === "text_delta");
		client.send({ id: "busy", type: "prompt", message: "no queue given" });
		expect(await client.waitFor(response("busy"))).toMatchObject({ success: false, error: expect.stringMatching(/busy/) });
		client.send({ id: "st", type: "prompt", message: "in French please", streamingBehavior: "steer" });
		expect(await client.waitFor(response("st"))).toMatchObject({ success: true });
		await client.waitFor((l) => l.type === "agent_end");

		expect(server.requests).toHaveLength(2);
		const users = server.requests[1].body.messages.filter((m: any) => m.role === "user").map((m: any) => JSON.stringify(m.content));
		expect(users).toHaveLength(2);
		expect(users[1]).toContain("in French please");
		expect((await client.end()).code).toBe(0);
	});

	it("abort ends the run with an aborted message and closes the server connection", { timeout: LONG }, async () => {
		const { server, client } = await start();
		const pieces = Array.from({ length: 200 }, (_, i) => `tok${i} `);
		server.enqueue({ kind: "sse", chunks: textRecords(pieces), delayMs: 200 });
		client.send({ id: "p", type: "prompt", message: "go on forever" });
		await client.waitFor((l) => l.type === "message_update" && l.assistantMessageEvent.type === "text_delta");
		await requestsReach(server, 1);
		expect(server.openSockets()).toBeGreaterThan(0);

		client.send({ id: "a", type: "abort" });
		expect(await client.waitFor(response("a"))).toMatchObject({ command: "abort", success: true });
		const end = await client.waitFor((l) => l.type === "message_end" && l.message.role === "assistant");
		expect(end.message.stopReason).toBe("aborted");
		await client.waitFor((l) => l.type === "agent_end");

		// The process is still running (stdin open): the socket closed because of the abort.
		const deadline = Date.now() + 30_000;
		while (server.openSockets() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
		expect(server.openSockets()).toBe(0);
		client.send({ id: "s", type: "get_state" });
		expect((await client.waitFor(response("s"))).data).toMatchObject({ isStreaming: false });
		expect(server.requests).toHaveLength(1);
		expect((await client.end()).code).toBe(0);
	});

	it("a follow-up queued while streaming runs after the first answer, on the model set_model chose", { timeout: LONG }, async () => {
		const { server, client } = await start();
		const pieces = Array.from({ length: 50 }, (_, i) => `w${i} `);
		server.enqueue({ kind: "sse", chunks: textRecords(pieces), delayMs: 100 }, { kind: "sse", chunks: [textBody("Follow-up done.")] });
		client.send({ id: "p", type: "prompt", message: "first task" });
		await client.waitFor((l) => l.type === "message_update");
		client.send({ id: "f", type: "prompt", message: "then this", streamingBehavior: "followUp" });
		expect(await client.waitFor(response("f"))).toMatchObject({ success: true });
		client.send({ id: "q", type: "get_state" });
		expect((await client.waitFor(response("q"))).data).toMatchObject({ isStreaming: true, followUp: ["then this"] });
		await client.waitFor((l) => l.type === "agent_end");
		expect(server.requests).toHaveLength(2);
		const lastUser = server.requests[1].body.messages.filter((m: any) => m.role === "user").at(-1);
		expect(JSON.stringify(lastUser.content)).toContain("then this");

		client.send({ id: "m", type: "set_model", provider: "mock", modelId: "mock-2" });
		// pi's shape: the data is the model itself.
		expect(await client.waitFor(response("m"))).toMatchObject({ success: true, data: { provider: "mock", id: "mock-2" } });
		client.send({ id: "t", type: "set_thinking_level", level: "high" });
		expect(await client.waitFor(response("t"))).toMatchObject({ success: true });
		client.send({ id: "n", type: "new_session" });
		expect(await client.waitFor(response("n"))).toMatchObject({ success: true });
		client.send({ id: "s", type: "get_state" });
		expect((await client.waitFor(response("s"))).data).toMatchObject({ messageCount: 0, model: { id: "mock-2" } });
		server.enqueue({ kind: "sse", chunks: [textBody("fresh")] });
		// Counted before sending: findIndex of a response not yet received is -1, and slice(-1) sees only the last line.
		const fromFresh = client.lines.length;
		client.send({ id: "p2", type: "prompt", message: "fresh start" });
		await client.waitFor((l) => l.type === "agent_end", { from: fromFresh });
		expect(server.requests[2].body.model).toBe("mock-2");
		expect(server.requests[2].body.messages.filter((m: any) => m.role === "user")).toHaveLength(1);
		expect((await client.end()).code).toBe(0);
	});

	it("compact summarises the earlier turns with the model; the next request starts from the summary", { timeout: LONG }, async () => {
		const { server, client } = await start();
		for (const [id, question, answer] of [
			["p1", "first task", "First answer."],
			["p2", "second task", "Second answer."],
		]) {
			server.enqueue({ kind: "sse", chunks: [textBody(answer)] });
			const from = client.lines.length;
			client.send({ id, type: "prompt", message: question });
			// Sent the moment agent_end is seen: the run may still be settling.
			await client.waitFor((l) => l.type === "agent_end", { from });
		}
		server.enqueue({ kind: "sse", chunks: [textBody("Summary: the user set a first task.")] });
		client.send({ id: "c1", type: "compact", customInstructions: "Name every task." });
		expect(await client.waitFor(response("c1"))).toMatchObject({ command: "compact", success: true });
		expect(await client.waitFor((l) => l.type === "compaction_end")).toMatchObject({
			reason: "manual",
			summary: "Summary: the user set a first task.",
		});
		const summarising = JSON.stringify(server.requests[2].body.messages);
		expect(summarising).toContain("first task");
		expect(summarising).toContain("Name every task.");

		client.send({ id: "m1", type: "get_messages" });
		const messages = (await client.waitFor(response("m1"))).data.messages;
		expect(messages.map((m: any) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);

		server.enqueue({ kind: "sse", chunks: [textBody("Third answer.")] });
		const from = client.lines.length;
		client.send({ id: "p3", type: "prompt", message: "third task" });
		await client.waitFor((l) => l.type === "agent_end", { from });
		const next = JSON.stringify(server.requests[3].body.messages);
		expect(next).toContain("Summary: the user set a first task.");
		expect(next).not.toContain("First answer.");
		expect(next).toContain("Second answer.");
		expect((await client.end()).code).toBe(0);
	});

	it("a prompt sent on agent_end waits for the run to settle (a threshold compaction) instead of failing as busy", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await cli.setUp();
		// A tiny window: every run ends over the threshold, so the session compacts before it is idle.
		const models = {
			providers: { mock: { baseUrl: `${server.url}/v1`, api: "openai-completions", models: [{ id: "mock-1", contextWindow: 110 }] } },
		};
		writeFileSync(join(home.rudderHome, "models.json"), JSON.stringify(models));
		writeFileSync(join(home.rudderHome, "settings.json"), JSON.stringify({ compaction: { reserveTokens: 100 } }));
		const client = cli.rpc();
		server.enqueue({ kind: "sse", chunks: [textBody("First answer.")] });
		server.enqueue({ kind: "sse", chunks: [textBody("Second answer.")] });
		// The summary the threshold compaction asks for after the second run, slowly.
		server.enqueue({ kind: "sse", chunks: textRecords(["Summary ", "of the ", "first task."]), delayMs: 300 });
		server.enqueue({ kind: "sse", chunks: [textBody("Third answer.")] });
		for (const [id, question] of [
			["p1", "first task"],
			["p2", "second task"],
			["p3", "third task"],
		]) {
			const from = client.lines.length;
			client.send({ id, type: "prompt", message: question });
			expect(await client.waitFor(response(id), { from })).toMatchObject({ success: true });
			await client.waitFor((l) => l.type === "agent_end", { from });
		}
		expect(client.lines.some((l) => l.type === "compaction_end" && l.summary === "Summary of the first task.")).toBe(true);
		expect(JSON.stringify(server.requests[3].body.messages)).toContain("Summary of the first task.");
	});

	it("closing stdin lets a running prompt finish before exiting", { timeout: LONG }, async () => {
		const { server, client } = await start();
		server.enqueue({ kind: "sse", chunks: textRecords(["slow ", "but ", "sure"]), delayMs: 100 });
		client.send({ id: "p", type: "prompt", message: "hi" });
		const result = await client.end();
		expect(result.code).toBe(0);
		const end = client.lines.find((l) => l.type === "agent_end");
		expect(end.messages.at(-1).content).toEqual([{ type: "text", text: "slow but sure" }]);
	});

	it("checkpoints each prompt; get_rewind_points, rewind and get_tree work on the session file", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		writeFileSync(join(home.cwd, "a.txt"), "original\n");
		const client = cli.rpc([], { session: true });
		server.enqueue({ kind: "sse", chunks: [textBody("first reply")] });
		client.send({ id: "p1", type: "prompt", message: "first prompt" });
		const checkpoint = await client.waitFor((l) => l.type === "checkpoint_created");
		expect(checkpoint).toMatchObject({ engine: "git" });
		await client.waitFor((l) => l.type === "agent_end");
		// The user's own shell command changes the files after the run.
		client.send({ id: "b1", type: "bash", command: "echo changed > a.txt && echo new > b.txt" });
		await client.waitFor(response("b1"));

		client.send({ id: "r0", type: "get_rewind_points" });
		const points = (await client.waitFor(response("r0"))).data.points;
		expect(points.map((p: any) => p.text)).toEqual(["first prompt"]);
		client.send({ id: "r1", type: "rewind", entryId: points[0].entryId, restore: "both" });
		const rewound = await client.waitFor(response("r1"));
		expect(rewound).toMatchObject({ success: true, data: { restore: "both", text: "first prompt" } });
		expect(rewound.data.files.map((f: any) => `${f.status} ${f.path}`).sort()).toEqual(["deleted b.txt", "modified a.txt"]);
		expect(await client.waitFor((l) => l.type === "rewound")).toMatchObject({ entryId: points[0].entryId });
		expect(readFileSync(join(home.cwd, "a.txt"), "utf8")).toBe("original\n");
		expect(existsSync(join(home.cwd, "b.txt"))).toBe(false);

		client.send({ id: "t1", type: "get_tree" });
		const tree = (await client.waitFor(response("t1"))).data;
		const leaf = tree.entries.find((e: any) => e.id === tree.leafId);
		expect(leaf.type).toBe("branch");
		expect(tree.entries.filter((e: any) => e.role === "user").map((e: any) => e.text)).toEqual(["first prompt"]);
		client.send({ id: "m1", type: "get_messages" });
		expect((await client.waitFor(response("m1"))).data.messages).toEqual([]);
		client.send({ id: "x1", type: "rewind", entryId: "nope", restore: "code" });
		expect(await client.waitFor(response("x1"))).toMatchObject({ success: false, error: expect.stringMatching(/nope/) });
	});

	it("with --rpc-full-updates, a known key split across deltas never shows in a line, not even its start", { timeout: LONG }, async () => {
		const key = "sk-rpc-split-key-0123456789abcdef";
		const { server } = await cli.setUp();
		const client = cli.rpc(["--rpc-full-updates", "--api-key", key]);
		server.enqueue(
			{ kind: "sse", chunks: toolCallRecords("read", ['{"path":"keys/sk-rpc-', "split-key-0123", '456789abcdef.txt"}']), delayMs: 20 },
			{ kind: "sse", chunks: textRecords(["Your key is sk-rpc-spl", "it-key-0123", "456789abcdef and that is all."]), delayMs: 20 },
		);
		client.send({ id: "p1", type: "prompt", message: "what is my key?" });
		const end = await client.waitFor((l) => l.type === "agent_end");
		const out = (await client.end()).stdout;
		for (let length = 8; length <= key.length; length++) expect(out).not.toContain(key.slice(0, length));
		expect(end.messages.at(-1).content).toEqual([{ type: "text", text: "Your key is [redacted] and that is all." }]);
		const updates = client.lines.filter((l) => l.type === "message_update");
		// The partial is there while it streams, and grows up to the whole reply.
		expect(updates.some((l) => l.assistantMessageEvent.type === "text_delta" && l.message.content[0]?.text === "Your key is ")).toBe(true);
		expect(updates.at(-1)?.assistantMessageEvent.partial.content).toEqual([
			{ type: "text", text: "Your key is [redacted] and that is all." },
		]);
		const toolCallEnd = updates.find((l) => l.assistantMessageEvent.type === "toolcall_end");
		expect(toolCallEnd?.message.content[0]).toMatchObject({ type: "toolCall", arguments: { path: "keys/[redacted].txt" } });
	});
});
