// Forks in pi's sense on a real session file: fork points of the branch, a fork before a user
// message (lineage in the header, the original untouched), a clone, and the --no-session refusal.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage } from "../../src/ai/index.js";
import { forkBefore, forkPoints } from "../../src/session/session-fork.js";
import { loadSession } from "../../src/session/session-load.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture | undefined;
afterEach(async () => {
	await fx?.cleanup();
	fx = undefined;
});

async function twoTurns(f: Fixture) {
	f.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
	await f.session.prompt("first");
	await f.session.prompt("second");
}

describe("session forks", () => {
	it("lists the branch's user messages and forks before one, keeping the original file", async () => {
		fx = await createFixture();
		await twoTurns(fx);
		const original = fx.session.getState().sessionFile as string;
		const points = fx.session.forkPoints();
		expect(points.map((p) => p.text)).toEqual(["first", "second"]);
		expect(await fx.session.forkAt(points[1].entryId)).toEqual({ text: "second" });
		const forked = fx.session.getState().sessionFile as string;
		expect(forked).not.toBe(original);
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		const loaded = loadSession(forked);
		expect(loaded.header.parentSession).toBe(original);
		// Same entry ids as the original: the fork is a prefix of its tree.
		expect(loaded.entries.map((e) => e.id)).toEqual(
			loadSession(original)
				.branch.slice(0, loaded.entries.length)
				.map((e) => e.id),
		);
		expect(readFileSync(original, "utf8")).toContain('"second"');
	});

	it("a fork from the first message is an empty session naming its parent", async () => {
		fx = await createFixture();
		await twoTurns(fx);
		const original = fx.session.getState().sessionFile as string;
		expect(await fx.session.forkAt(fx.session.forkPoints()[0].entryId)).toEqual({ text: "first" });
		expect(fx.session.getState().messages).toHaveLength(0);
		fx.faux.setResponses([fauxAssistantMessage("again")]);
		await fx.session.prompt("retry");
		expect(loadSession(fx.session.getState().sessionFile as string).header.parentSession).toBe(original);
	});

	it("clone copies the branch into a new file; an unknown or non-user entry id is refused", async () => {
		fx = await createFixture();
		await twoTurns(fx);
		const original = fx.session.getState().sessionFile as string;
		const assistantId = loadSession(original).branch.find((e) => e.type === "message" && e.message.role === "assistant")?.id as string;
		expect(() => forkBefore(loadSession(original), assistantId)).toThrow(`No user message with entry id "${assistantId}"`);
		await fx.session.cloneSession();
		expect(fx.session.getState().sessionFile).not.toBe(original);
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(forkPoints(loadSession(fx.session.getState().sessionFile as string))).toEqual(forkPoints(loadSession(original)));
	});

	it("a session name is saved as pi's session_info entry and kept by a fork and a resume", async () => {
		fx = await createFixture();
		await twoTurns(fx);
		fx.session.setSessionName("  auth refactor ");
		expect(fx.session.getState().sessionName).toBe("auth refactor");
		const original = fx.session.getState().sessionFile as string;
		expect(loadSession(original).entries.at(-1)).toMatchObject({ type: "session_info", name: "auth refactor" });
		expect(() => fx?.session.setSessionName(" ")).toThrow("A session name cannot be empty");
		await fx.session.cloneSession();
		expect(fx.session.getState().sessionName).toBe("auth refactor");
		await fx.session.newSession();
		expect(fx.session.getState().sessionName).toBeUndefined();
		await fx.session.resumeSession(original);
		expect(fx.session.getState().sessionName).toBe("auth refactor");
	});

	it("needs a saved session", async () => {
		fx = await createFixture({ session: { sessionMode: { kind: "none" } } });
		expect(() => fx?.session.forkPoints()).toThrow("Forking needs a saved session");
	});
});
