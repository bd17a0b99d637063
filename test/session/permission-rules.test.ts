// The session side of issue 30 item 4 (the /permissions screen calls it): every rule in force with its
// scope, added and removed both in force and in its file. A removed rule stops allowing at once.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/ai/index.js";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { dataDir } from "../../src/config/paths.js";
import { trustFilePath } from "../../src/permissions/trust.js";
import { loadPermissionSetup } from "../../src/session/session-permissions.js";
import { globalSettingsPath } from "../../src/session/settings.js";
import { createFixture, type Fixture } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => fx?.cleanup());

const lastResult = (fx: Fixture) => {
	const results = fx.events.flatMap((e) =>
		e.type === "message_end" && e.message.role === "toolResult" ? [e.message as ToolResultMessage] : [],
	);
	const last = results.at(-1) as ToolResultMessage;
	return { isError: last.isError, text: last.content.map((c) => (c.type === "text" ? c.text : "")).join("") };
};

describe("the session's rules: list, add, remove", { timeout: 30_000 }, () => {
	it("lists flag, global and session rules with their scope; a session rule added allows, removed asks again", async () => {
		fx = await createFixture();
		const globalFile = globalSettingsPath(fx.env);
		mkdirSync(dirname(globalFile), { recursive: true });
		writeFileSync(globalFile, JSON.stringify({ permissions: { deny: ["read(.env)"] } }), { mode: 0o600 });
		const session = await fx.open({
			tools: ["bash"],
			approvals: "print",
			sandboxFactory: () => undefined,
			permissions: loadPermissionSetup({ cwd: fx.cwd, env: fx.env, flags: { mode: "ask", allow: ["bash(ls*)"] } }),
		});
		const rules = session.permissionRules();
		expect(rules.list()).toEqual([
			{ kind: "allow", text: "bash(ls*)", scope: "flag" },
			{ kind: "deny", text: "read(.env)", scope: "global", file: globalFile },
		]);
		expect(rules.add("allow", "bash(echo*)", { origin: "test", scope: "session" })).toEqual({
			kind: "allow",
			text: "bash(echo*)",
			scope: "session",
		});
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command: "echo ran" })]), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("go");
		expect(lastResult(fx)).toEqual({ isError: false, text: "ran" });

		expect(rules.remove("bash(echo*)")).toEqual([{ kind: "allow", text: "bash(echo*)", scope: "session" }]);
		fx.faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command: "echo ran" })]), fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("again");
		expect(lastResult(fx).isError).toBe(true);
		expect(lastResult(fx).text).toContain("Not run");
		expect(() => rules.remove("bash(echo*)")).toThrow('no rule "bash(echo*)"');
	});

	it("a rule added in global or project scope is written to its file (0600) and removed from it", async () => {
		fx = await createFixture();
		const session = await fx.open({ tools: ["bash"], approvals: "print", sandboxFactory: () => undefined, permissionMode: "ask" });
		const rules = session.permissionRules();
		const approvals = trustFilePath(dataDir(fx.env));
		expect(rules.add("allow", "bash(npm test*)", { origin: "test" })).toEqual({
			kind: "allow",
			text: "bash(npm test*)",
			scope: "project",
			file: approvals,
		});
		expect(statSync(approvals).mode & 0o777).toBe(0o600);
		expect(readFileSync(approvals, "utf8")).toContain("bash(npm test*)");
		const globalFile = globalSettingsPath(fx.env);
		rules.add("deny", "bash(git push*)", { origin: "test", scope: "global" });
		expect(JSON.parse(readFileSync(globalFile, "utf8"))).toEqual({ permissions: { deny: ["bash(git push*)"] } });
		expect(statSync(globalFile).mode & 0o777).toBe(0o600);
		expect(() => rules.add("deny", "bash(x*)", { origin: "test", scope: "project" })).toThrow(
			"deny rules are not kept with your approvals",
		);
		expect(() => rules.add("allow", "bash(", { origin: "test" })).toThrow('permission rule "bash(" must be');

		// A new session of the folder sees both, by scope; removing them empties the files' lists.
		const next = await fx.open({ tools: ["bash"], approvals: "print", sandboxFactory: () => undefined, permissionMode: "ask" });
		expect(next.permissionRules().list()).toEqual([
			{ kind: "allow", text: "bash(npm test*)", scope: "project", file: approvals },
			{ kind: "deny", text: "bash(git push*)", scope: "global", file: globalFile },
		]);
		next.permissionRules().remove("bash(npm test*)");
		next.permissionRules().remove("bash(git push*)", { kind: "deny" });
		expect(JSON.parse(readFileSync(globalFile, "utf8"))).toEqual({ permissions: { deny: [] } });
		expect(readFileSync(approvals, "utf8")).not.toContain("bash(npm test*)");
		expect(next.permissionRules().list()).toEqual([]);
	});
});
