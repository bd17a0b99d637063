// The session keeps secrets out of what it writes and sends: exports are 0600 and redacted, tool
// results reaching the model are redacted, and `/login` typed as a prompt never reaches the model.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { processSecrets } from "../../src/safety/secrets.js";
import { createFixture, type Fixture, fixedRegistry } from "./session-fixture.js";

const SECRET = "sk-session-secret-0123456789";
let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

describe("session secrets", () => {
	it("a file that prints a key reaches the model, the session file and /export redacted; the export is 0600", async () => {
		fx = await createFixture();
		processSecrets.add(SECRET);
		writeFileSync(join(fx.cwd, "leak.txt"), `token=${SECRET}\n`);
		// A world-readable file already there: the export must not keep its mode.
		writeFileSync(join(fx.cwd, "out.md"), "old", { mode: 0o644 });
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("read", { path: "leak.txt" })]), fauxAssistantMessage([fauxText("read it")])]);
		await fx.session.prompt("read leak.txt");
		// The transcript is what the next request carries.
		const sent = JSON.stringify(fx.session.getState().messages);
		expect(sent).not.toContain(SECRET);
		expect(sent).toContain("token=[redacted]");
		const file = fx.session.getState().sessionFile as string;
		expect(readFileSync(file, "utf8")).not.toContain(SECRET);
		const out = fx.session.exportMarkdown("out.md");
		expect(readFileSync(out, "utf8")).toContain("token=[redacted]");
		expect(statSync(out).mode & 0o777).toBe(0o600);
	});

	it("an export shows escape sequences, C1, bidi and zero-width characters visibly and keeps tabs", async () => {
		fx = await createFixture();
		writeFileSync(join(fx.cwd, "evil.txt"), "title\x1b]0;pwned\x07 clip\x1b]52;c;ZXZpbA==\x07 csi\x9b6n rtl\u202Eabc zw\u200Bx\tend\n");
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("read", { path: "evil.txt" })]), fauxAssistantMessage([fauxText("done")])]);
		await fx.session.prompt("read evil.txt");
		const text = readFileSync(fx.session.exportMarkdown("out.md"), "utf8");
		expect(text).toContain("title^[]0;pwned^G clip^[]52;c;ZXZpbA==^G csi⟪U+009B⟫6n rtl⟪U+202E⟫abc zw⟪U+200B⟫x\tend");
		expect(text).not.toMatch(/[\x1b\x07\x9b\u202e\u200b]/);
	});

	it("/login given as a prompt runs the command: the key reaches neither the model nor the transcript", async () => {
		const keys: Record<string, string> = {};
		fx = await createFixture({ session: { registry: fixedRegistry([], keys) } });
		await fx.session.prompt(`/login groq ${SECRET}`);
		expect(keys.groq).toBe(SECRET);
		expect(fx.session.getState().messages).toEqual([]);
		expect(() => fx.session.steer(`/login groq ${SECRET}`)).toThrow(/\/login cannot be queued/);
	});
});
