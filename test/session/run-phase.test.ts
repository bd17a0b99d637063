// The one run phase: derived in RunPhaseBox from what starts and ends, published in getState().phase
// and as phase_changed events. The retry phase is driven by a real provider (OpenAI chat completions)
// against a 127.0.0.1 server that answers 429 first.
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxToolCall, type Model } from "../../src/ai/index.js";
import { RunPhaseBox } from "../../src/session/run-phase.js";
import type { RunPhase } from "../../src/session/types.js";
import { textBody } from "../helpers/openai-chunks.js";
import { type ScriptedServer, startScriptedServer } from "../helpers/sse-server.js";
import { createFixture, type Fixture } from "./session-fixture.js";

describe("RunPhaseBox", () => {
	it("derives one phase, compaction over approval over retry over running, and reports each change once", () => {
		const seen: RunPhase[] = [];
		const box = new RunPhaseBox(
			(p) => seen.push(p),
			() => 1000,
		);
		expect(box.phase).toEqual({ kind: "idle" });
		box.setRunning(true);
		box.agentStart();
		box.retrying({ attempt: 2, maxAttempts: 4, delayMs: 3000, status: 429, reason: "429 rate limited" });
		const approval = { toolCallId: "c1", toolName: "bash" };
		box.approvalStarted(approval);
		box.compactionStarted("overflow");
		box.compactionEnded();
		box.approvalEnded(approval);
		box.progressed();
		box.progressed();
		box.agentEnd();
		box.setRunning(false);
		expect(seen).toEqual([
			{ kind: "running" },
			{ kind: "retrying", attempt: 2, maxAttempts: 4, delayMs: 3000, until: 4000, status: 429, reason: "429 rate limited" },
			{ kind: "awaiting-approval", toolCallId: "c1", toolName: "bash" },
			{ kind: "compacting", reason: "overflow" },
			{ kind: "awaiting-approval", toolCallId: "c1", toolName: "bash" },
			{ kind: "retrying", attempt: 2, maxAttempts: 4, delayMs: 3000, until: 4000, status: 429, reason: "429 rate limited" },
			{ kind: "running" },
			{ kind: "running", settling: true },
			{ kind: "idle" },
		]);
	});
});

describe("the session's run phase", () => {
	let fx: Fixture;
	let server: ScriptedServer | undefined;
	afterEach(async () => {
		await fx?.cleanup();
		await server?.close();
		server = undefined;
	});

	const phases = () => fx.events.flatMap((e) => (e.type === "phase_changed" ? [e.phase] : []));

	it("goes running → settling → idle for a prompt, and getState agrees at each step", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage("hi")]);
		const seenInState: string[] = [];
		fx.session.subscribe((e) => {
			if (e.type === "phase_changed") seenInState.push(fx.session.getState().phase.kind);
		});
		const run = fx.session.prompt("hello");
		// Busy from the call on: a second prompt in the same tick is refused.
		expect(fx.session.getState().phase).toEqual({ kind: "running" });
		await expect(fx.session.prompt("again")).rejects.toThrow(/already active/);
		await run;
		expect(phases()).toEqual([{ kind: "running" }, { kind: "running", settling: true }, { kind: "idle" }]);
		expect(seenInState).toEqual(["running", "running", "idle"]);
		expect(fx.session.getState()).toMatchObject({ phase: { kind: "idle" }, isStreaming: false, isCompacting: false });
	});

	it("is awaiting-approval while a beforeToolCall approval is pending, then running again", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("ls", { path: "." }, { id: "call-1" })]), fauxAssistantMessage("listed")]);
		let answer!: (allowed: boolean) => void;
		fx.session.agent.beforeToolCall = async (context) =>
			fx.session
				.awaitApproval(context.toolCall, () => new Promise<boolean>((r) => (answer = r)))
				.then((ok) => (ok ? undefined : { block: true, reason: "denied" }));
		const run = fx.session.prompt("list");
		await fx.waitForEvent("phase_changed", (e) => e.phase.kind === "awaiting-approval");
		expect(fx.session.getState().phase).toEqual({ kind: "awaiting-approval", toolCallId: "call-1", toolName: "ls" });
		answer(true);
		await run;
		const kinds = phases().map((p) => p.kind);
		expect(kinds.slice(kinds.indexOf("awaiting-approval"))).toEqual(["awaiting-approval", "running", "running", "idle"]);
	});

	it("is compacting during /compact and idle after", async () => {
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage("a1"), fauxAssistantMessage("a2"), fauxAssistantMessage("SUMMARY")]);
		await fx.session.prompt("first");
		await fx.session.prompt("second");
		fx.events.length = 0;
		await fx.session.compact();
		expect(phases()).toEqual([{ kind: "compacting", reason: "manual" }, { kind: "idle" }]);
	});

	it("publishes a provider's retry: attempt, delay, status and reason, then running again", async () => {
		server = await startScriptedServer();
		server.enqueue(
			{ kind: "status", status: 429, body: '{"error":{"message":"slow down"}}', headers: { "retry-after-ms": "200" } },
			{ kind: "sse", chunks: [textBody("after the wait")] },
		);
		const model: Model = {
			id: "mock-1",
			name: "mock-1",
			api: "openai-completions",
			provider: "mock",
			baseUrl: `${server.url}/v1`,
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 100_000,
			maxTokens: 4096,
		};
		fx = await createFixture({ session: { model, apiKey: "test-key", streamFn: undefined } });
		const before = Date.now();
		await fx.session.prompt("hello");
		const retry = phases().find((p) => p.kind === "retrying");
		expect(retry).toMatchObject({ kind: "retrying", attempt: 2, maxAttempts: 4, delayMs: 200, status: 429, reason: "429 rate limited" });
		expect((retry as { until: number }).until).toBeGreaterThanOrEqual(before + 200);
		const kinds = phases().map((p) => p.kind);
		expect(kinds).toEqual(["running", "retrying", "running", "running", "idle"]);
		expect(server.requests).toHaveLength(2);
		expect(fx.session.getState().messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});
});
