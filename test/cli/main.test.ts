// The built CLI end to end (run `npm run build` first): a child process talking to a scripted
// OpenAI-compatible server on 127.0.0.1, in an isolated home with no keys and no local discovery.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, textRecords, toolCallBody } from "../helpers/openai-chunks.js";
import { cliPerTest, runCli } from "../helpers/rudder-cli.js";

const LONG = 60_000;
const cli = cliPerTest();
const setUp = () => cli.setUp();

/** Text of the chat messages the model was sent, as `role: text` lines (system prompt left out). */
function transcriptOf(body: any): string[] {
	return body.messages
		.filter((m: any) => m.role !== "system" && m.role !== "developer")
		.map((m: any) => `${m.role}: ${typeof m.content === "string" ? m.content : (m.content ?? []).map((c: any) => c.text ?? "").join("")}`);
}

describe("rudder (built CLI)", () => {
	it("-p answers on stdout and exits 0", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		server.enqueue({ kind: "sse", chunks: [textBody("The answer is 42.")] });
		const result = await runCli(["--model", "mock/mock-1", "-p", "what is the answer?"], home);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("The answer is 42.\n");
		expect(result.code).toBe(0);
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].body.model).toBe("mock-1");
		expect(transcriptOf(server.requests[0].body)).toEqual(["user: what is the answer?"]);
	});

	it("joins piped stdin to the prompt", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		server.enqueue({ kind: "sse", chunks: [textBody("Three lines.")] });
		const result = await runCli(["--model", "mock/mock-1", "-p", "count the lines"], home, { input: "a\nb\nc\n" });
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("Three lines.\n");
		expect(transcriptOf(server.requests[0].body)).toEqual(["user: count the lines\n\na\nb\nc"]);
	});

	it("a 500 from the server exits 1 with one line on stderr", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		const failure = {
			kind: "status" as const,
			status: 500,
			body: '{"error":{"message":"model exploded"}}',
			headers: { "retry-after-ms": "0" },
		};
		server.enqueue(failure, failure, failure, failure, failure);
		const result = await runCli(["--model", "mock/mock-1", "-p", "hi"], home);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
		expect(result.stderr).toMatch(/^rudder: .*500.*model exploded/);
	});

	it("with no key and no local server, print mode exits 2 saying how to set up", { timeout: LONG }, async () => {
		const home = cli.bareHome();
		const result = await runCli(["-p", "hello"], home);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe("");
		const lines = result.stderr.trimEnd().split("\n");
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain("ANTHROPIC_API_KEY");
		expect(lines[0]).toContain("OPENAI_API_KEY");
		expect(lines[0]).toMatch(/OpenAI-compatible server/);
	});

	it("-c continues the previous session: the second request holds the first exchange", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		server.enqueue({ kind: "sse", chunks: [textBody("Hello, Ada.")] }, { kind: "sse", chunks: [textBody("You are Ada.")] });
		const first = await runCli(["--model", "mock/mock-1", "-p", "my name is Ada"], home);
		expect(first.code).toBe(0);
		const second = await runCli(["--model", "mock/mock-1", "-c", "-p", "what is my name?"], home);
		expect(second.stderr).toBe("");
		expect(second.stdout).toBe("You are Ada.\n");
		expect(transcriptOf(server.requests[1].body)).toEqual(["user: my name is Ada", "assistant: Hello, Ada.", "user: what is my name?"]);
	});

	it("-c on a session another process has open: one line naming it and --fork; -c --fork continues in a copy", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await setUp();
		server.enqueue({ kind: "sse", chunks: [textBody("Hello, Ada.")] }, { kind: "sse", chunks: [textBody("You are Ada.")] });
		expect((await runCli(["--model", "mock/mock-1", "-p", "my name is Ada"], home)).code).toBe(0);
		const sessions = join(home.rudderHome, "data", "sessions");
		const file = readdirSync(sessions, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(".jsonl")) as string;
		// Another live process holds the lock (a real one: its pid answers signal 0).
		const holder = spawn("sleep", ["60"], { stdio: "ignore" });
		try {
			writeFileSync(join(sessions, `${file}.lock`), JSON.stringify({ pid: holder.pid, host: hostname() }));
			const refused = await runCli(["--model", "mock/mock-1", "-c", "-p", "what is my name?"], home);
			expect(refused.code).toBe(1);
			expect(refused.stderr).toBe(
				`rudder: ${join(sessions, file)} is open in another rudder (pid ${holder.pid}); close that one, or fork the session to continue in a copy (--fork)\n`,
			);
			expect(server.requests).toHaveLength(1);
			const forked = await runCli(["--model", "mock/mock-1", "-c", "--fork", "-p", "what is my name?"], home);
			expect(forked.stderr).toBe("");
			expect(forked.stdout).toBe("You are Ada.\n");
			expect(transcriptOf(server.requests[1].body)).toEqual(["user: my name is Ada", "assistant: Hello, Ada.", "user: what is my name?"]);
			expect(readdirSync(sessions, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"))).toHaveLength(2);
		} finally {
			holder.kill("SIGKILL");
		}
		const alone = await runCli(["--model", "mock/mock-1", "--fork", "-p", "x"], home);
		expect(alone).toMatchObject({ code: 2, stderr: "rudder: --fork needs -c, -r or --session\n" });
	});

	it("without -c a new session starts empty", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		server.enqueue({ kind: "sse", chunks: [textBody("one")] }, { kind: "sse", chunks: [textBody("two")] });
		await runCli(["--model", "mock/mock-1", "-p", "first"], home);
		await runCli(["--model", "mock/mock-1", "-p", "second"], home);
		expect(transcriptOf(server.requests[1].body)).toEqual(["user: second"]);
	});

	it("-r resumes the session used last and names it on stderr", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		server.enqueue(
			{ kind: "sse", chunks: [textBody("first answer")] },
			{ kind: "sse", chunks: [textBody("second answer")] },
			{ kind: "sse", chunks: [textBody("resumed")] },
		);
		await runCli(["--model", "mock/mock-1", "-p", "older question"], home);
		await runCli(["--model", "mock/mock-1", "-p", "newer question"], home);
		const result = await runCli(["-r", "-p", "and now?"], home);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("resumed\n");
		expect(result.stderr).toMatch(
			/^rudder: Resumed the session used last \w{8} \(2 messages, "newer question"\); others: \w{8} \(2 messages, "older question"\)/,
		);
		expect(transcriptOf(server.requests[2].body)).toEqual(["user: newer question", "assistant: second answer", "user: and now?"]);
	});

	it("-r in print and json mode resumes the session used last in the folder, as -c does, not the newest file", {
		timeout: LONG,
	}, async () => {
		const { server, home } = await setUp();
		server.enqueue(
			{ kind: "sse", chunks: [textBody("first answer")] },
			{ kind: "sse", chunks: [textBody("second answer")] },
			{ kind: "sse", chunks: [textBody("appended")] },
			{ kind: "sse", chunks: [textBody("resumed in print")] },
			{ kind: "sse", chunks: [textBody("resumed in json")] },
			{ kind: "sse", chunks: [textBody("continued")] },
		);
		await runCli(["--model", "mock/mock-1", "-p", "older question"], home);
		await runCli(["--model", "mock/mock-1", "-p", "newer question"], home);
		const dir = join(home.rudderHome, "data", "sessions");
		const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
			.filter((f) => f.endsWith(".jsonl"))
			.sort();
		expect(files).toHaveLength(2);
		const idOf = (file: string) => (JSON.parse(readFileSync(join(dir, file), "utf8").split("\n")[0]).id as string).slice(0, 8);
		const olderId = idOf(files[0]);
		// The older-created session is appended to last: its file is now also the newest by mtime.
		expect((await runCli(["--model", "mock/mock-1", "--session", olderId, "-p", "one more"], home)).code).toBe(0);
		// Then the newer one is opened (rpc, no prompt) and left: used last, but its file not written.
		expect((await runCli(["--model", "mock/mock-1", "--mode", "rpc", "--session", idOf(files[1])], home)).code).toBe(0);
		expect(statSync(join(dir, files[0])).mtimeMs).toBeGreaterThan(statSync(join(dir, files[1])).mtimeMs);

		const print = await runCli(["--model", "mock/mock-1", "-r", "-p", "and now?"], home);
		expect(print.code).toBe(0);
		expect(print.stdout).toBe("resumed in print\n");
		expect(print.stderr).toMatch(
			/^rudder: Resumed the session used last \w{8} \(2 messages, "newer question"\); others: \w{8} \(4 messages, "older question"\)/,
		);
		expect(transcriptOf(server.requests[3].body)).toEqual(["user: newer question", "assistant: second answer", "user: and now?"]);
		const json = await runCli(["--model", "mock/mock-1", "-r", "--mode", "json", "and then?"], home);
		expect(json.code).toBe(0);
		expect(transcriptOf(server.requests[4].body).slice(0, 3)).toEqual([
			"user: newer question",
			"assistant: second answer",
			"user: and now?",
		]);
		// -c agrees: the same session, now with both resumed exchanges.
		expect((await runCli(["--model", "mock/mock-1", "-c", "-p", "and -c?"], home)).stdout).toBe("continued\n");
		expect(transcriptOf(server.requests[5].body).slice(0, 5)).toEqual([
			"user: newer question",
			"assistant: second answer",
			"user: and now?",
			"assistant: resumed in print",
			"user: and then?",
		]);
	});

	it("Ctrl+C during -p aborts the run: exit 130, one line on stderr", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		server.enqueue({ kind: "sse", chunks: textRecords(Array.from({ length: 300 }, (_, i) => `t${i} `)), delayMs: 100 });
		const result = await runCli(["--model", "mock/mock-1", "-p", "talk forever"], home, {
			onStart: (child) => {
				const poll = setInterval(() => {
					if (server.requests.length === 0) return;
					clearInterval(poll);
					child.kill("SIGINT");
				}, 20);
			},
		});
		expect(result.code).toBe(130);
		expect(result.stdout).toBe("");
		expect(result.stderr).toBe("rudder: interrupted by Ctrl+C while the model was answering\n");
	});

	for (const mode of [["-p"], ["--mode", "json"]]) {
		it(`Ctrl+C while a tool runs in ${mode.join(" ")}: exit 130, one line on stderr, the tool stopped`, { timeout: LONG }, async () => {
			const { server, home } = await setUp();
			const marker = join(home.cwd, "tool-started");
			server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command: `touch ${marker} && sleep 30` })] });
			const started = Date.now();
			const result = await runCli(["--model", "mock/mock-1", "--allow", "bash", ...mode, "run the slow command"], home, {
				onStart: (child) => {
					const poll = setInterval(() => {
						if (!existsSync(marker)) return;
						clearInterval(poll);
						child.kill("SIGINT");
					}, 20);
				},
			});
			expect(result.code).toBe(130);
			expect(result.stderr).toBe("rudder: interrupted by Ctrl+C while a tool ran\n");
			if (mode[0] === "-p") expect(result.stdout).toBe("");
			// The 30 s sleep was stopped, not waited for; the model was not asked again.
			expect(Date.now() - started).toBeLessThan(20_000);
			expect(server.requests).toHaveLength(1);
		});
	}

	it("runs a tool the model asks for and sends its result back", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		writeFileSync(join(home.cwd, "notes-for-ls.txt"), "x");
		server.enqueue({ kind: "sse", chunks: [toolCallBody("ls", { path: "." })] }, { kind: "sse", chunks: [textBody("One file.")] });
		const result = await runCli(["--model", "mock/mock-1", "--tools", "read,ls", "-p", "list the files"], home);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("One file.\n");
		expect(server.requests).toHaveLength(2);
		const messages = server.requests[1].body.messages;
		const call = messages.find((m: any) => m.role === "assistant" && m.tool_calls);
		expect(call.tool_calls[0].function.name).toBe("ls");
		const toolResult = messages.find((m: any) => m.role === "tool");
		expect(toolResult.tool_call_id).toBe(call.tool_calls[0].id);
		expect(JSON.stringify(toolResult.content)).toContain("notes-for-ls.txt");
	});

	it("--list-models lists built-in and custom models, filtered by a search", { timeout: LONG }, async () => {
		const { home } = await setUp();
		const all = await runCli(["--list-models"], home);
		expect(all.code).toBe(0);
		expect(all.stdout).toMatch(/^model\s+name\s+context\s+usable$/m);
		expect(all.stdout).toMatch(/^mock\/mock-1\s/m);
		expect(all.stdout).toMatch(/^anthropic\/claude-sonnet-4-5\s.*\sno \(set ANTHROPIC_API_KEY\)$/m);
		// The offline demo is listed, and usable: it needs nothing.
		expect(all.stdout).toMatch(/^demo\/demo\s+Demo \(offline, scripted\)\s+128k\s+yes$/m);
		const filtered = await runCli(["--list-models", "mock"], home);
		// models.json's provider has no apiKey: a keyless server, usable as is.
		expect(filtered.stdout.trimEnd().split("\n")).toEqual([
			expect.stringMatching(/^model/),
			expect.stringMatching(/^mock\/mock-1\s.*\syes$/),
		]);
		const none = await runCli(["--list-models", "no-such-model-anywhere"], home);
		expect(none.code).toBe(1);
		expect(none.stderr).toBe('rudder: no model matches "no-such-model-anywhere"\n');
	});

	it("--model demo/demo answers offline in -p mode too", { timeout: LONG }, async () => {
		const { server, home } = await setUp();
		const result = await runCli(["--model", "demo/demo", "-p", "hello"], home);
		expect(result.code).toBe(0);
		expect(result.stderr).toBe("");
		expect(result.stdout).toContain("You said:");
		expect(server.requests).toHaveLength(0);
	});

	it("--version prints the package version", { timeout: LONG }, async () => {
		const home = cli.bareHome();
		const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../package.json"), "utf8"));
		const result = await runCli(["--version"], home);
		expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
	});

	it("bad flags and unknown models give one line and exit 2", { timeout: LONG }, async () => {
		const { home } = await setUp();
		const badFlag = await runCli(["--frobnicate"], home);
		expect(badFlag.code).toBe(2);
		expect(badFlag.stderr).toBe("rudder: unknown option '--frobnicate' (see rudder --help)\n");
		const badModel = await runCli(["--model", "nope/none", "-p", "hi"], home);
		expect(badModel.code).toBe(2);
		expect(badModel.stderr).toBe('rudder: unknown model "nope/none" (see rudder --list-models)\n');
		const noPrompt = await runCli(["--model", "mock/mock-1", "-p"], home);
		expect(noPrompt.code).toBe(2);
		expect(noPrompt.stderr).toMatch(/^rudder: no prompt/);
		const noSession = await runCli(["--model", "mock/mock-1", "-r", "-p", "hi"], home);
		expect(noSession.code).toBe(2);
		expect(noSession.stderr).toMatch(/^rudder: no session to resume in /);
	});
});
