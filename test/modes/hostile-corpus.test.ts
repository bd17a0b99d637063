// The hostile-input corpus (test/fixtures/hostile/) through the built CLI in every non-interactive
// mode, against a 127.0.0.1 server speaking the OpenAI chat-completions wire protocol, on each channel
// outside text takes: the model's streamed reply, a file the model reads (tool output), and a server's
// error body. Through a pipe `-p` is byte-exact (only the key is redacted); through a pty (`script`) no
// ESC, C1, bidi or zero-width character reaches the terminal, every printable character does, and an
// unterminated sequence swallows nothing; json and rpc lines carry every control escaped, losslessly.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	CORPUS_SECRET,
	corpusText,
	ERROR_GROUPS,
	HOSTILE_CASES,
	type HostileCase,
	HUGE_LINE,
	INVALID_UTF8_BYTES,
	inOrder,
	printables,
	RAW_CONTROL,
	redacted,
	streamedPieces,
} from "../fixtures/hostile/corpus.js";
import { textBody, textRecords, toolCallBody } from "../helpers/openai-chunks.js";
import { BIN, type CliHome, type CliResult, cliPerTest, runCli } from "../helpers/rudder-cli.js";
import type { ScriptedServer } from "../helpers/sse-server.js";

const LONG = 120_000;
const cli = cliPerTest();
/** The key is known to the redactor as the provider's key; the corpus echoes it. */
const KEY_ARGS = ["--model", "mock/mock-1", "--no-session", "--api-key", CORPUS_SECRET];
const MODEL_TEXT = corpusText([...HOSTILE_CASES, HUGE_LINE]);

/** The file the model reads: the corpus (no NUL: `read` would call it binary) with the invalid UTF-8 bytes raw. */
function writeHostileFile(home: CliHome): string {
	const text = corpusText(HOSTILE_CASES.filter((c) => c.name !== "invalid-utf8")).replace(/\0/g, "");
	writeFileSync(join(home.cwd, "hostile.txt"), Buffer.concat([Buffer.from(`${text}### invalid-utf8\n`), INVALID_UTF8_BYTES]));
	return "hostile.txt";
}

type Channel = "model text" | "tool output";
const CHANNELS: Channel[] = ["model text", "tool output"];

/** Scripts the server for `channel`. */
function script(server: ScriptedServer, home: CliHome, channel: Channel): void {
	if (channel === "model text") server.enqueue({ kind: "sse", chunks: textRecords(streamedPieces(MODEL_TEXT)) });
	else {
		server.enqueue({ kind: "sse", chunks: [toolCallBody("read", { path: writeHostileFile(home) })] });
		server.enqueue({ kind: "sse", chunks: [textBody("read it")] });
	}
}

const errorReply = (cases: readonly HostileCase[]) =>
	({ kind: "status", status: 400, body: JSON.stringify({ error: { message: corpusText(cases) } }) }) as const;

/** Runs `run` once per error group, each against a server answering with that group; the results in order. */
async function eachErrorGroup(run: (home: CliHome) => Promise<CliResult>): Promise<CliResult[]> {
	return Promise.all(
		ERROR_GROUPS.map(async (cases) => {
			const { server, home } = await cli.setUp();
			server.enqueue(errorReply(cases));
			return run(home);
		}),
	);
}

/** The tool result the model was sent (what `read` made of the file). */
const toolResultSent = (server: ScriptedServer): string =>
	server.requests[1].body.messages.find((m: { role: string }) => m.role === "tool").content;

/** Runs rudder under `script` (util-linux): stdout and stderr are a pty; the bytes the terminal got. */
function runInPty(args: string[], home: CliHome): Promise<CliResult> {
	const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
	const child = spawn("script", ["-qfec", quoted, "/dev/null"], { cwd: home.cwd, env: { ...home.env, TERM: "xterm-256color" } });
	let stdout = "";
	child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
	child.stdin.end();
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`rudder under script did not exit; output: ${stdout.slice(-500)}`));
		}, 60_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			// The pty's line discipline turns each \n into \r\n.
			resolve({ code, stdout: stdout.replace(/\r\n/g, "\n"), stderr: "" });
		});
	});
}

/** What a terminal may receive: nothing raw, every printable character of `cases` in order, no key. */
function expectSafeOnTerminal(shown: string, cases: readonly HostileCase[]): void {
	const raw = shown.match(RAW_CONTROL);
	expect(
		raw,
		`raw ${JSON.stringify(raw?.[0])} at ${raw?.index}: ${JSON.stringify(shown.slice((raw?.index ?? 0) - 20, (raw?.index ?? 0) + 20))}`,
	).toBeNull();
	expect(shown).not.toContain(CORPUS_SECRET);
	for (const c of cases) expect(inOrder(printables(redacted(c.text)), shown), `every printable character of ${c.name} is shown`).toBe(true);
}

/** Every line of json/rpc output: parses, holds no raw control, no key. */
function jsonLines(stdout: string): any[] {
	expect(stdout.replace(/\n/g, "")).not.toMatch(RAW_CONTROL);
	expect(stdout).not.toContain(CORPUS_SECRET);
	return stdout
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line));
}

const textDeltas = (events: any[]) =>
	events
		.filter((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta")
		.map((e) => e.assistantMessageEvent.delta)
		.join("");

describe("the hostile corpus through -p, to a pipe", () => {
	it("model text: stdout is the reply byte for byte, the key redacted", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		script(server, home, "model text");
		const result = await runCli(["-p", ...KEY_ARGS, "go"], home);
		expect(result.code).toBe(0);
		expect(result.stdout === redacted(MODEL_TEXT), "stdout is byte-exact").toBe(true);
		expect(result.stderr).toBe("");
	});

	it("tool output: the model gets the file as read made it, the key redacted; stdout is the answer", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		script(server, home, "tool output");
		const result = await runCli(["-p", ...KEY_ARGS, "--allow", "read", "go"], home);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("read it\n");
		const sent = toolResultSent(server);
		expect(sent).not.toContain(CORPUS_SECRET);
		// Lossless for the model: every case's text reaches it as the file holds it.
		for (const c of HOSTILE_CASES.filter((c) => c.name !== "invalid-utf8")) expect(sent).toContain(redacted(c.text.replace(/\0/g, "")));
	});

	it("error bodies: one stderr line each, sanitised even to a pipe, every printable character kept, the key redacted", {
		timeout: LONG,
	}, async () => {
		const results = await eachErrorGroup((home) => runCli(["-p", ...KEY_ARGS, "go"], home));
		results.forEach((result, i) => {
			expect(result.code).toBe(1);
			expect(result.stdout).toBe("");
			expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
			expectSafeOnTerminal(result.stderr, ERROR_GROUPS[i]);
		});
	});

	it("a key in an error body cut at its 300-character limit leaks no part of it", { timeout: LONG }, async () => {
		const { server, home } = await cli.setUp();
		// The key straddles the cut: redacting after cutting would leave its first 20 characters.
		server.enqueue({ kind: "status", status: 400, body: JSON.stringify({ error: { message: `${"x".repeat(280)} ${CORPUS_SECRET}` } }) });
		const result = await runCli(["-p", ...KEY_ARGS, "go"], home);
		expect(result.code).toBe(1);
		expect(result.stderr).not.toContain(CORPUS_SECRET.slice(0, 8));
	});
});

describe("the hostile corpus through -p, to a terminal (a pty under script)", () => {
	it.each(CHANNELS)("%s: no raw control reaches the terminal, every printable character does", { timeout: LONG }, async (channel) => {
		const { server, home } = await cli.setUp();
		script(server, home, channel);
		const result = await runInPty(["-p", ...KEY_ARGS, "--allow", "read", "go"], home);
		expect(result.code).toBe(0);
		if (channel === "tool output") expect(result.stdout).toBe("read it\n");
		else {
			expectSafeOnTerminal(result.stdout, HOSTILE_CASES);
			expect(result.stdout).toContain(HUGE_LINE.text);
		}
	});

	it("error bodies: the error line on the terminal holds no raw control and every printable character", { timeout: LONG }, async () => {
		const results = await eachErrorGroup((home) => runInPty(["-p", ...KEY_ARGS, "go"], home));
		results.forEach((result, i) => {
			expect(result.code).toBe(1);
			expectSafeOnTerminal(result.stdout, ERROR_GROUPS[i]);
		});
	});
});

describe("the hostile corpus through --mode json and --mode rpc", () => {
	/** Runs `channel` in json mode, or in rpc mode with one prompt; the parsed lines. */
	async function run(mode: "json" | "rpc", channel: Channel): Promise<{ events: any[]; server: ScriptedServer }> {
		const { server, home } = await cli.setUp();
		script(server, home, channel);
		if (mode === "json") {
			const result = await runCli(["--mode", "json", ...KEY_ARGS, "--allow", "read", "go"], home);
			expect(result.code).toBe(0);
			expect(result.stderr).not.toMatch(RAW_CONTROL);
			return { events: jsonLines(result.stdout), server };
		}
		const client = cli.rpc(["--api-key", CORPUS_SECRET, "--allow", "read"]);
		client.send({ id: "p", type: "prompt", message: "go" });
		await client.waitFor((l) => l.type === "agent_end", { timeoutMs: 60_000 });
		const result = await client.end();
		return { events: jsonLines(result.stdout), server };
	}

	/** The error message of each error group's failed run: json one process per group, rpc one prompt per group. */
	async function errorMessages(mode: "json" | "rpc"): Promise<string[]> {
		const errorOf = (events: any[]) => {
			const end = events.findLast((e) => e.type === "message_end");
			expect(end.message.stopReason).toBe("error");
			return end.message.errorMessage as string;
		};
		if (mode === "json") {
			const results = await eachErrorGroup((home) => runCli(["--mode", "json", ...KEY_ARGS, "go"], home));
			return results.map((result) => {
				expect(result.code).toBe(1);
				expect(result.stderr).not.toMatch(RAW_CONTROL);
				return errorOf(jsonLines(result.stdout));
			});
		}
		const { server } = await cli.setUp();
		const client = cli.rpc(["--api-key", CORPUS_SECRET]);
		const errors: string[] = [];
		for (const [i, cases] of ERROR_GROUPS.entries()) {
			server.enqueue(errorReply(cases));
			const from = client.lines.length;
			client.send({ id: `p${i}`, type: "prompt", message: "go" });
			await client.waitFor((l) => l.type === "agent_end", { from, timeoutMs: 60_000 });
			errors.push(errorOf(client.lines.slice(from)));
		}
		const result = await client.end();
		jsonLines(result.stdout);
		return errors;
	}

	for (const mode of ["json", "rpc"] as const) {
		it(`${mode}, model text: the deltas join to the reply exactly, every control escaped, the key redacted`, {
			timeout: LONG,
		}, async () => {
			const { events } = await run(mode, "model text");
			expect(textDeltas(events) === redacted(MODEL_TEXT), "deltas are lossless").toBe(true);
			const end = events.findLast((e) => e.type === "message_end");
			expect(end.message.content[0].text === redacted(MODEL_TEXT)).toBe(true);
		});

		it(`${mode}, tool output: the result is the file as the model got it, U+202E escaped on the line`, { timeout: LONG }, async () => {
			const { events, server } = await run(mode, "tool output");
			const end = events.find((e) => e.type === "tool_execution_end");
			expect(end.isError).toBe(false);
			expect(end.result.content[0].text).toBe(toolResultSent(server));
			expect(end.result.content[0].text).toContain("access = \u202euser\u202c");
		});

		it(`${mode}, error bodies: each error is said whole, the key redacted, controls escaped on the line`, { timeout: LONG }, async () => {
			const errors = await errorMessages(mode);
			for (const [i, error] of errors.entries())
				expect(inOrder(printables(redacted(corpusText(ERROR_GROUPS[i]))), error), error).toBe(true);
			expect(errors.join("\n")).toContain("[redacted]");
		});
	}
});
