// The hostile-input corpus in the TUI (ink-testing-library frames), over a real AgentSession whose
// model streams from a 127.0.0.1 server speaking the OpenAI chat-completions wire protocol: as the
// model's reply, as a file the model reads (expanded with Ctrl+O), and as server error bodies. No frame
// holds a raw control, bidi or zero-width character (Ink's own colour codes aside), every printable
// character of every case is on screen (an unterminated sequence hides nothing), and the key never shows.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	CORPUS_SECRET,
	corpusText,
	ERROR_GROUPS,
	HOSTILE_CASES,
	type HostileCase,
	inOrder,
	printables,
	RAW_CONTROL,
	redacted,
	streamedPieces,
} from "../../fixtures/hostile/corpus.js";
import { textBody, textRecords, toolCallBody } from "../../helpers/openai-chunks.js";
import { providerModel } from "../../helpers/provider-test.js";
import { type ScriptedServer, startScriptedServer } from "../../helpers/sse-server.js";
import { createFixture, type Fixture } from "../../session/session-fixture.js";
import { mountOnSession } from "./mount-app.js";

let server: ScriptedServer | undefined;
let fx: Fixture | undefined;
let app: ReturnType<typeof render> | undefined;
afterEach(async () => {
	app?.unmount();
	await fx?.cleanup();
	await server?.close();
	app = undefined;
});

/** Ink's own styling (complete SGR codes) is Rudder's; anything else raw came from outside. */
const withoutOwnStyling = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, "");

async function mount() {
	server = await startScriptedServer();
	const model = providerModel({ id: "mock-1", api: "openai-completions", provider: "mock", baseUrl: `${server.url}/v1` });
	fx = await createFixture({ session: { model, apiKey: CORPUS_SECRET, tools: ["read"], permissionMode: "yolo" } });
	const mounted = await mountOnSession(fx.session, { rows: 200, columns: 120 });
	app = mounted.app;
	return { server, ...mounted };
}

function expectFramesSafe(frames: readonly string[]): void {
	for (const frame of frames) {
		const shown = withoutOwnStyling(frame);
		const raw = shown.match(RAW_CONTROL);
		expect(
			raw,
			`raw ${JSON.stringify(raw?.[0])} near ${JSON.stringify(shown.slice((raw?.index ?? 0) - 20, (raw?.index ?? 0) + 20))}`,
		).toBeNull();
		expect(shown).not.toContain(CORPUS_SECRET);
	}
}

function expectAllShown(frame: string, cases: readonly HostileCase[]): void {
	const shown = withoutOwnStyling(frame);
	for (const c of cases)
		expect(inOrder(printables(redacted(c.text)), shown), `every printable character of ${c.name} is on screen`).toBe(true);
}

describe("the hostile corpus in the TUI", () => {
	it("as the model's streamed reply", { timeout: 60_000 }, async () => {
		const { server, frame, type } = await mount();
		server.enqueue({ kind: "sse", chunks: textRecords(streamedPieces(corpusText())) });
		await type("go");
		await type("\r");
		await vi.waitFor(() => expect(fx?.session.getState().isStreaming).toBe(false), { timeout: 30_000 });
		await vi.waitFor(() => expect(frame()).toContain("### invalid-utf8"));
		expectFramesSafe(app?.frames ?? []);
		expectAllShown(frame(), HOSTILE_CASES);
	});

	it("as a file the model reads, expanded with Ctrl+O", { timeout: 60_000 }, async () => {
		const { server, frame, type } = await mount();
		const cases = HOSTILE_CASES.filter((c) => c.name !== "invalid-utf8" && c.name !== "c0-controls");
		writeFileSync(join(fx?.cwd ?? "", "hostile.txt"), corpusText(cases));
		server.enqueue(
			{ kind: "sse", chunks: [toolCallBody("read", { path: "hostile.txt" })] },
			{ kind: "sse", chunks: [textBody("read it")] },
		);
		await type("go");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("read it"), { timeout: 30_000 });
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toContain("### key-echo"));
		expectFramesSafe(app?.frames ?? []);
		expectAllShown(frame(), cases);
	});

	it("as server error bodies", { timeout: 60_000 }, async () => {
		const { server, frame, type } = await mount();
		for (const [i, cases] of ERROR_GROUPS.entries()) {
			server.enqueue({ kind: "status", status: 400, body: JSON.stringify({ error: { message: corpusText(cases) } }) });
			await type(`go ${i}`);
			await type("\r");
			await vi.waitFor(() => expect(server.requests).toHaveLength(i + 1), { timeout: 30_000 });
			await vi.waitFor(() => expect(fx?.session.getState().isStreaming).toBe(false), { timeout: 30_000 });
		}
		await vi.waitFor(() => expect(frame()).toContain(`### ${ERROR_GROUPS.at(-1)?.[0].name}`));
		expectFramesSafe(app?.frames ?? []);
		expectAllShown(frame(), HOSTILE_CASES);
	});
});
