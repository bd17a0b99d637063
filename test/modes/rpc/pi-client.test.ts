// `rudder --mode rpc` (the built bin/rudder.js) driven by pi's own RpcClient from
// @mariozechner/pi-coding-agent 0.73.1, against a 127.0.0.1 OpenAI-compatible server: if pi's client
// can run a session through every command, code written for pi's RPC protocol can too.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RpcClient } from "@mariozechner/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { KEY_ENV_VARS } from "../../../src/ai/constants.js";
import { textBody, textRecords, toolCallBody } from "../../helpers/openai-chunks.js";
import { BIN, type CliHome, makeHome } from "../../helpers/rudder-cli.js";
import { type ScriptedServer, startScriptedServer } from "../../helpers/sse-server.js";

const LONG = 120_000;
let server: ScriptedServer | undefined;
let home: CliHome | undefined;
let client: RpcClient | undefined;

afterEach(async () => {
	await client?.stop();
	await server?.close();
	home?.cleanup();
	client = undefined;
});

type AnyEvent = { type: string; [k: string]: any };

/** Starts pi's client on our CLI; every event is kept, `next` waits for one (past events count). */
async function start(options: { models?: string[]; args?: string[] } = {}) {
	server = await startScriptedServer();
	home = makeHome({ mockUrl: server.url, modelIds: options.models ?? ["mock-1", "mock-2"] });
	// pi's client spreads process.env under `env`: blank the keys so none of this machine's reaches the child.
	const env = { ...home.env, ...Object.fromEntries(KEY_ENV_VARS.map((k) => [k, ""])) };
	const rpc = new RpcClient({ cliPath: BIN, cwd: home.cwd, env, provider: "mock", model: "mock-1", args: options.args });
	client = rpc;
	const events: AnyEvent[] = [];
	const waiters = new Set<() => void>();
	rpc.onEvent((e) => {
		events.push(e as AnyEvent);
		for (const w of [...waiters]) w();
	});
	await rpc.start();
	const next = (predicate: (e: AnyEvent) => boolean, from = 0, timeoutMs = 30_000) =>
		new Promise<AnyEvent>((resolve, reject) => {
			const check = () => {
				const found = events.slice(from).find(predicate);
				if (!found) return;
				clearTimeout(timer);
				waiters.delete(check);
				resolve(found);
			};
			const timer = setTimeout(() => {
				waiters.delete(check);
				reject(new Error(`no matching event; stderr: ${rpc.getStderr()}`));
			}, timeoutMs);
			waiters.add(check);
			check();
		});
	return { server, home, rpc, events, next };
}

/** The header line of a session file. */
const header = (file: string) => JSON.parse(readFileSync(file, "utf8").split("\n")[0]);

const userTexts = (body: any): string[] =>
	body.messages
		.filter((m: any) => m.role === "user")
		.map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

describe("pi's RpcClient drives rudder --mode rpc", () => {
	it("prompt, steer, follow-up and abort; get_state reports pi's queue fields", { timeout: LONG }, async () => {
		const { server, rpc, events, next } = await start();
		const slow = Array.from({ length: 60 }, (_, i) => `word${i} `);
		server.enqueue(
			{ kind: "sse", chunks: textRecords(slow), delayMs: 80 },
			{ kind: "sse", chunks: [textBody("En français.")] },
			{ kind: "sse", chunks: [textBody("Summary done.")] },
		);
		await rpc.prompt("write a long poem");
		await next((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
		await rpc.steer("in French please");
		await rpc.followUp("then summarise");
		const busy = await rpc.getState();
		expect(busy).toMatchObject({
			isStreaming: true,
			pendingMessageCount: 2,
			steeringMode: "one-at-a-time",
			followUpMode: "one-at-a-time",
			autoCompactionEnabled: true,
			isCompacting: false,
		});
		expect(busy.model).toMatchObject({ provider: "mock", id: "mock-1" });
		await rpc.waitForIdle();
		expect(server.requests).toHaveLength(3);
		expect(userTexts(server.requests[1].body).at(-1)).toContain("in French please");
		expect(userTexts(server.requests[2].body).at(-1)).toContain("then summarise");
		// The default message_update line is the delta only (no partial message).
		const update = events.find((e) => e.type === "message_update");
		expect(update?.message).toBeUndefined();
		expect(update?.assistantMessageEvent.partial).toBeUndefined();
		expect(events.some((e) => e.type === "queue_update" && e.steering[0] === "in French please")).toBe(true);

		// Records without the finish: the server then stalls, so only the abort ends this reply.
		server.enqueue({ kind: "sse", chunks: textRecords(slow).slice(0, -1), stallAfter: true });
		const from = events.length;
		await rpc.prompt("another long one");
		await next((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta", from);
		await rpc.abort();
		const messages = await rpc.getMessages();
		expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect((await rpc.getState()).isStreaming).toBe(false);
	});

	it("model, thinking, queue-mode, retry, name and command commands answer in pi's shapes", { timeout: LONG }, async () => {
		const { server, home, rpc } = await start();
		const models = await rpc.getAvailableModels();
		expect(models.map((m) => `${m.provider}/${m.id}`)).toEqual(["mock/mock-1", "mock/mock-2"]);
		expect(models[0]).toMatchObject({ contextWindow: expect.any(Number), reasoning: expect.any(Boolean) });
		expect(await rpc.setModel("mock", "mock-2")).toMatchObject({ provider: "mock", id: "mock-2" });
		await expect(rpc.setModel("mock", "mock")).rejects.toThrow("Model not found: mock/mock");
		expect(await rpc.cycleModel()).toMatchObject({ model: { id: "mock-1" }, isScoped: false });
		expect((await rpc.getState()).model?.id).toBe("mock-1");

		// The mock models cannot think: cycling answers null, as pi does.
		await rpc.setThinkingLevel("high");
		expect(await rpc.cycleThinkingLevel()).toBeNull();
		expect((await rpc.getState()).thinkingLevel).toBe("off");

		await rpc.setSteeringMode("all");
		await rpc.setFollowUpMode("all");
		await rpc.setAutoCompaction(false);
		await rpc.setAutoRetry(false);
		await rpc.abortRetry();
		await rpc.setSessionName("feature-work");
		expect(await rpc.getState()).toMatchObject({
			steeringMode: "all",
			followUpMode: "all",
			autoCompactionEnabled: false,
			sessionName: "feature-work",
		});
		expect(await rpc.getLastAssistantText()).toBeNull();
		expect(await rpc.getCommands()).toEqual([]);
		await rpc.stop();

		// A markdown command in the project is one a prompt can invoke: get_commands lists it.
		mkdirSync(join(home.cwd, ".rudder", "commands"), { recursive: true });
		writeFileSync(join(home.cwd, ".rudder", "commands", "fix-tests.md"), "---\ndescription: Fix failing tests\n---\nFix the tests in $1\n");
		const again = new RpcClient({ cliPath: BIN, cwd: home.cwd, env: home.env, provider: "mock", model: "mock-1" });
		client = again;
		await again.start();
		expect(await again.getCommands()).toEqual([
			{
				name: "fix-tests",
				description: "Fix failing tests",
				source: "prompt",
				sourceInfo: { path: join(home.cwd, ".rudder", "commands", "fix-tests.md"), source: "local", scope: "project", origin: "top-level" },
			},
		]);
		// ...and a prompt naming it sends the expanded template, as pi does.
		server.enqueue({ kind: "sse", chunks: [textBody("Fixed.")] });
		await again.promptAndWait("/fix-tests src/parser.ts");
		expect(userTexts(server.requests[0].body).at(-1)).toContain("Fix the tests in src/parser.ts");
	});

	it("bash, compact, stats, export, new_session and switch_session over a saved session", { timeout: LONG }, async () => {
		const { server, home, rpc, events, next } = await start();
		for (const [question, answer] of [
			["first task", "First answer."],
			["second task", "Second answer."],
		]) {
			server.enqueue({ kind: "sse", chunks: [textBody(answer)] });
			const from = events.length;
			await rpc.prompt(question);
			await next((e) => e.type === "agent_end", from);
		}
		expect(await rpc.getLastAssistantText()).toBe("Second answer.");

		const bash = await rpc.bash("echo from-bash; exit 3");
		expect(bash).toEqual({ output: "from-bash", exitCode: 3, cancelled: false, truncated: false });
		expect((await rpc.getMessages()).at(-1)).toMatchObject({ role: "shellOutput", command: "echo from-bash; exit 3" });
		await rpc.abortBash();

		const stats = await rpc.getSessionStats();
		expect(stats).toMatchObject({ userMessages: 2, assistantMessages: 2, toolCalls: 0, toolResults: 0, totalMessages: 5 });
		expect(stats.tokens.input).toBeGreaterThan(0);
		expect(stats.contextUsage?.contextWindow).toBeGreaterThan(0);

		server.enqueue({ kind: "sse", chunks: [textBody("Summary: two tasks <b>set</b>.")] });
		const compacted = await rpc.compact("Name every task.");
		expect(compacted).toMatchObject({ summary: "Summary: two tasks <b>set</b>.", details: {} });
		expect(compacted.tokensBefore).toBeGreaterThan(0);
		expect(compacted.firstKeptEntryId).toMatch(/^[0-9a-f]{8}$/);
		expect(await next((e) => e.type === "compaction_end")).toMatchObject({
			reason: "manual",
			result: { summary: "Summary: two tasks <b>set</b>." },
			aborted: false,
			willRetry: false,
		});
		expect(JSON.stringify(server.requests[2].body.messages)).toContain("Name every task.");

		const exported = await rpc.exportHtml(join(home.cwd, "out.html"));
		const html = readFileSync(exported.path, "utf8");
		expect(html).toContain("Second answer.");
		expect(html).toContain("&#60;b&#62;set&#60;/b&#62;");
		expect(html).not.toContain("<b>set</b>");

		const firstFile = (await rpc.getState()).sessionFile;
		expect(firstFile && existsSync(firstFile)).toBe(true);
		expect(await rpc.newSession()).toMatchObject({ cancelled: false });
		const fresh = await rpc.getState();
		expect(fresh.messageCount).toBe(0);
		expect(fresh.sessionFile).not.toBe(firstFile);

		expect(await rpc.switchSession(firstFile as string)).toEqual({ cancelled: false });
		const back = await rpc.getState();
		expect(back.sessionFile).toBe(firstFile);
		expect((await rpc.getMessages()).map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "shellOutput"]);
	});

	it("fork, clone and get_fork_messages work on the session file's entry tree; new_session records its parent", {
		timeout: LONG,
	}, async () => {
		const { server, rpc, events, next } = await start();
		const ask = async (question: string, answer: string) => {
			server.enqueue({ kind: "sse", chunks: [textBody(answer)] });
			const from = events.length;
			await rpc.prompt(question);
			await next((e) => e.type === "agent_end", from);
		};
		await ask("first task", "First answer.");
		await ask("second task", "Second answer.");
		const original = (await rpc.getState()).sessionFile as string;
		const points = await rpc.getForkMessages();
		expect(points.map((p) => p.text)).toEqual(["first task", "second task"]);
		expect(points.every((p) => /^[0-9a-f]{8}$/.test(p.entryId))).toBe(true);
		await expect(rpc.fork("nope")).rejects.toThrow('No user message with entry id "nope"');

		// A fork from the second prompt keeps what came before it and hands its text back.
		expect(await rpc.fork(points[1].entryId)).toEqual({ text: "second task", cancelled: false });
		const forked = (await rpc.getState()).sessionFile as string;
		expect(forked).not.toBe(original);
		expect(header(forked).parentSession).toBe(original);
		expect((await rpc.getMessages()).map((m) => m.role)).toEqual(["user", "assistant"]);
		await ask("another second task", "Other answer.");
		const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
		expect(sent).toContain("first task");
		expect(sent).toContain("another second task");
		expect(sent).not.toContain('"second task"');
		// The original file is untouched by the fork.
		expect(readFileSync(original, "utf8")).not.toContain("another second task");

		expect(await rpc.clone()).toEqual({ cancelled: false });
		const cloned = (await rpc.getState()).sessionFile as string;
		expect(cloned).not.toBe(forked);
		expect(header(cloned).parentSession).toBe(forked);
		expect((await rpc.getMessages()).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);

		expect(await rpc.newSession("/elsewhere/parent.jsonl")).toEqual(expect.objectContaining({ cancelled: false }));
		await ask("fresh", "Fresh answer.");
		expect(header((await rpc.getState()).sessionFile as string).parentSession).toBe("/elsewhere/parent.jsonl");
	});

	it("a client that never answers approvals is never left waiting: a call that would ask fails as in -p, and every command works behind it", {
		timeout: LONG,
	}, async () => {
		// ask: in auto, the default where bwrap works, a sandboxed command would not ask.
		const { server, home, rpc, events, next } = await start({ args: ["--permission-mode", "ask"] });
		const toolResults = async () =>
			(await rpc.getMessages()).filter((m: any) => m.role === "toolResult").map((m: any) => m.content[0].text as string);
		// prompt: the model calls a tool that would ask; the call fails with the flag that allows it.
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("bash", { command: "touch first.txt" }, "call_1")] },
			{ kind: "sse", chunks: [textBody("Could not run it.")] },
		);
		await rpc.promptAndWait("make a file");
		expect(await toolResults()).toEqual([
			expect.stringMatching(
				/^Not run: the command `touch first.txt` needs the user's approval .* cannot ask\. To allow it, run rudder with --allow /,
			),
		]);
		expect(await rpc.getLastAssistantText()).toBe("Could not run it.");
		expect(existsSync(join(home.cwd, "first.txt"))).toBe(false);

		// prompt-while-busy, steer and follow_up while a reply streams; the steered turn calls a tool that would ask.
		const slow = Array.from({ length: 40 }, (_, i) => `word${i} `);
		server.enqueue(
			{ kind: "sse", chunks: textRecords(slow), delayMs: 80 },
			{ kind: "sse", chunks: [toolCallBody("bash", { command: "touch second.txt" }, "call_2")] },
			{ kind: "sse", chunks: [textBody("Steered.")] },
			{ kind: "sse", chunks: [textBody("Followed up.")] },
		);
		let from = events.length;
		await rpc.prompt("a long answer");
		await next((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta", from);
		// pi's client resolves prompt() on any response; ours is an error (no streamingBehavior), as pi's.
		await rpc.prompt("while busy");
		await rpc.steer("steer here");
		await rpc.followUp("follow up here");
		await rpc.waitForIdle();
		expect(server.requests).toHaveLength(6);
		expect(userTexts(server.requests[3].body).at(-1)).toContain("steer here");
		expect(userTexts(server.requests[5].body).at(-1)).toContain("follow up here");
		expect((await toolResults()).at(-1)).toMatch(/^Not run: the command `touch second.txt`/);
		expect(await rpc.getLastAssistantText()).toBe("Followed up.");
		expect(JSON.stringify(server.requests.map((r) => r.body.messages))).not.toContain("while busy");

		// abort: a denied call, then a reply that stalls until the client aborts.
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("bash", { command: "touch third.txt" }, "call_3")] },
			{ kind: "sse", chunks: textRecords(slow).slice(0, -1), stallAfter: true },
		);
		from = events.length;
		await rpc.prompt("one more");
		await next((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta", from);
		await rpc.abort();
		expect((await rpc.getMessages()).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });

		// bash, compact, fork and new_session.
		expect(await rpc.bash("echo from-bash")).toMatchObject({ output: "from-bash", exitCode: 0, cancelled: false });
		server.enqueue({ kind: "sse", chunks: [textBody("Summary of the work.")] });
		expect(await rpc.compact()).toMatchObject({ summary: "Summary of the work." });
		const points = await rpc.getForkMessages();
		expect(points.map((p) => p.text)).toContain("one more");
		const fork = points.find((p) => p.text === "one more");
		expect(await rpc.fork(fork?.entryId as string)).toEqual({ text: "one more", cancelled: false });
		expect(await rpc.newSession()).toMatchObject({ cancelled: false });
		expect((await rpc.getState()).messageCount).toBe(0);
		expect(events.some((e) => e.type === "approval_request")).toBe(false);
	});

	it("a retried request gives auto_retry_start/end; abort_retry ends a retry's wait", { timeout: LONG }, async () => {
		const { server, rpc, events, next } = await start();
		server.enqueue({ kind: "status", status: 503, body: "busy" }, { kind: "sse", chunks: [textBody("Recovered.")] });
		await rpc.promptAndWait("hello");
		expect(events.find((e) => e.type === "auto_retry_start")).toMatchObject({
			attempt: 1,
			maxAttempts: expect.any(Number),
			delayMs: expect.any(Number),
		});
		expect(events.find((e) => e.type === "auto_retry_end")).toEqual({ type: "auto_retry_end", success: true, attempt: 1 });
		expect(await rpc.getLastAssistantText()).toBe("Recovered.");

		// A long wait the client cuts short: the run ends at once, the retry reported as failed.
		server.enqueue({ kind: "status", status: 503, headers: { "retry-after": "30" }, body: "busy" });
		const from = events.length;
		await rpc.prompt("again");
		await next((e) => e.type === "auto_retry_start", from);
		const started = Date.now();
		await rpc.abortRetry();
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(await next((e) => e.type === "auto_retry_end", from)).toMatchObject({ success: false, attempt: 1 });
		expect((await rpc.getState()).isStreaming).toBe(false);
		expect(server.requests).toHaveLength(3);
	});

	it("with --rpc-full-updates, message_update carries the partial message as pi sends it", { timeout: LONG }, async () => {
		const { server, rpc, events } = await start({ args: ["--rpc-full-updates"] });
		server.enqueue({ kind: "sse", chunks: textRecords(["Hel", "lo"]) });
		await rpc.promptAndWait("hi");
		const deltas = events.filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta");
		expect(deltas.at(-1)?.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(deltas.at(-1)?.assistantMessageEvent.partial.content).toEqual([{ type: "text", text: "Hello" }]);
	});
});
