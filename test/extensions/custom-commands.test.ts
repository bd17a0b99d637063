import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText } from "../../src/ai/index.js";
import { expandCommand, loadCustomCommands, splitArguments } from "../../src/extensions/custom-commands.js";
import { putFile } from "../helpers/put-file.js";
import { createFixture, type Fixture, userTexts } from "../session/session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

describe("expandCommand", () => {
	it("replaces $ARGUMENTS with the whole line and $1, $2… with single (quoted) words", () => {
		expect(expandCommand("Fix issue $1 on branch $2. Notes: $ARGUMENTS", '42 "feature x" extra')).toBe(
			'Fix issue 42 on branch feature x. Notes: 42 "feature x" extra',
		);
		expect(expandCommand("Missing: [$3]", "a b")).toBe("Missing: []");
	});

	it("does not expand placeholders that arrive inside an argument", () => {
		expect(expandCommand("Say $1 and $2", "$2 two")).toBe("Say $2 and two");
	});

	it("appends the arguments when the template has no placeholder, so nothing typed is lost", () => {
		expect(expandCommand("Review the diff.\n", "focus on tests")).toBe("Review the diff.\n\nfocus on tests");
		expect(expandCommand("Review the diff.\n", "")).toBe("Review the diff.");
	});

	it("splits words on whitespace with single and double quotes grouping", () => {
		expect(splitArguments(` a  'b c' "d \\"e\\"" f`)).toEqual(["a", "b c", 'd "e"', "f"]);
	});
});

describe("loadCustomCommands", () => {
	it("reads project (.rudder, .claude) and global folders; a project command shadows the global one", async () => {
		fx = await createFixture();
		const global = join(fx.env.RUDDER_HOME, "commands");
		putFile(join(global, "review.md"), "---\ndescription: Global review\n---\nGlobal body");
		putFile(join(global, "greet.md"), "# Say hello nicely\nHello $1");
		putFile(join(fx.cwd, ".claude", "commands", "review.md"), "---\ndescription: Claude review\n---\nClaude body");
		putFile(
			join(fx.cwd, ".rudder", "commands", "review.md"),
			"---\ndescription: Project review\nargument-hint: <file>\n---\nProject body $1",
		);
		putFile(join(fx.cwd, ".rudder", "commands", "help.md"), "mine");
		putFile(join(fx.cwd, ".rudder", "commands", "notes.txt"), "not a command");
		const loaded = loadCustomCommands({ cwd: fx.cwd, env: fx.env, reserved: ["help"] });
		expect(loaded.commands.map((c) => [c.name, c.scope, c.description])).toEqual([
			["greet", "global", "Say hello nicely"],
			["review", "project", "Project review"],
		]);
		const review = loaded.commands[1];
		expect(review).toMatchObject({
			argumentHint: "<file>",
			path: join(fx.cwd, ".rudder", "commands", "review.md"),
			shadows: join(global, "review.md"),
		});
		expect(loaded.warnings).toEqual([`Skipped command file ${join(fx.cwd, ".rudder", "commands", "help.md")}: /help is built in`]);
	});
});

describe("custom commands in a session", () => {
	it("sends the expanded template to the model, shows in commands() and /help names the shadowing", async () => {
		fx = await createFixture();
		putFile(join(fx.env.RUDDER_HOME, "commands", "fix.md"), "Global fix");
		putFile(
			join(fx.cwd, ".rudder", "commands", "fix.md"),
			"---\ndescription: Fix an issue\nargument-hint: <number> [area]\n---\nFix issue #$1 in $2.\nAll: $ARGUMENTS\n",
		);
		const extra = await fx.open();
		const info = extra.commands().find((c) => c.name === "fix");
		expect(info).toMatchObject({ description: "Fix an issue", args: "<number> [area]" });

		fx.faux.setResponses([fauxAssistantMessage([fauxText("on it")])]);
		expect(await extra.submit("/fix 12 parser")).toEqual({ kind: "prompted" });
		await extra.waitForIdle();
		expect(userTexts(fx.faux, 0)).toEqual(["Fix issue #12 in parser.\nAll: 12 parser"]);

		await extra.submit("/help");
		const help = fx.notices().at(-1) ?? "";
		expect(help).toContain(
			`/fix <number> [area]  Fix an issue (project command ${join(fx.cwd, ".rudder", "commands", "fix.md")}, shadows the global ${join(fx.env.RUDDER_HOME, "commands", "fix.md")})`,
		);
	});

	it("a built-in name still runs the built-in, and the skipped file is reported once at start", async () => {
		fx = await createFixture();
		putFile(join(fx.cwd, ".rudder", "commands", "session.md"), "Pretend to be /session");
		const extra = await fx.open();
		expect(await extra.submit("/session")).toEqual({ kind: "command", name: "session" });
		expect(fx.faux.calls).toHaveLength(0);
		expect(fx.notices().filter((n) => n.includes("session.md"))).toEqual([
			`Skipped command file ${join(fx.cwd, ".rudder", "commands", "session.md")}: /session is built in`,
		]);
	});
});
