// `/init` sends the built-in prompt and the model's AGENTS.md goes through the ordinary approval with
// its diff (ask mode); `/memory` lists the AGENTS.md files and adds a line to one. Real session, the
// scripted faux model, real files in a temp project.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { configDir } from "../../src/config/paths.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

const AGENTS = "# AGENTS.md\n\nGuidance for coding agents working in this repository.\n\n- npm test runs the tests\n";

describe("/init", () => {
	it("asks the model to write AGENTS.md; the write waits for approval with its diff", { timeout: 30_000 }, async () => {
		fx = await createFixture();
		const session = await fx.open({
			tools: ["read", "write", "edit"],
			approvals: "prompt",
			permissionMode: "ask",
			sandboxFactory: () => undefined,
		});
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("write", { path: "AGENTS.md", content: AGENTS })]),
			fauxAssistantMessage([fauxText("Wrote AGENTS.md.")]),
		]);
		expect(await session.submit("/init focus on the test commands")).toEqual({ kind: "command", name: "init" });
		const asked = await fx.waitForEvent("approval_request");
		expect(asked).toMatchObject({ tool: "write", preview: { type: "diff", path: "AGENTS.md" } });
		expect((asked.preview as { diff: string }).diff).toContain("+- npm test runs the tests");
		expect(existsSync(join(fx.cwd, "AGENTS.md"))).toBe(false);
		session.respondToApproval(asked.id, { decision: "allow" });
		await session.waitForIdle();
		expect(readFileSync(join(fx.cwd, "AGENTS.md"), "utf8")).toBe(AGENTS);
		// What the model was asked: the built-in prompt, with the user's focus.
		const sent = JSON.stringify(fx.faux.calls[0].context.messages);
		expect(sent).toContain("create an AGENTS.md file at its root");
		expect(sent).toContain("The user adds: focus on the test commands");
	});

	it("refuses while a run is active", { timeout: 30_000 }, async () => {
		fx = await createFixture({ fauxRate: 20 });
		const session = await fx.open();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("a long answer ".repeat(20))])]);
		const run = session.prompt("go");
		await fx.waitForEvent("message_update");
		await session.submit("/init");
		expect(fx.notices().at(-1)).toContain("/init starts a run: wait for this one to end");
		session.abort();
		await run;
		expect(fx.faux.calls).toHaveLength(1);
	});
});

describe("/memory", () => {
	it("lists the project and global AGENTS.md and adds a line to the one named", { timeout: 30_000 }, async () => {
		fx = await createFixture();
		const session = await fx.open();
		await session.submit("/memory");
		expect(fx.notices().at(-1)).toMatch(/project {2}.*AGENTS\.md \(created on the first line\)\n {2}global {2}.*AGENTS\.md/);
		await session.submit("/memory project always run npm test before committing");
		expect(readFileSync(join(fx.cwd, "AGENTS.md"), "utf8")).toBe("- always run npm test before committing\n");
		expect(fx.notices().at(-1)).toMatch(/^Added to .*AGENTS\.md/);
		await session.submit("/memory global prefer short answers");
		expect(readFileSync(join(configDir(fx.env), "AGENTS.md"), "utf8")).toBe("- prefer short answers\n");
		await session.submit("/memory somewhere else");
		expect(fx.notices().at(-1)).toBe("Usage: /memory [project|global <text>]");
	});
});
