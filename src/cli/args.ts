// The command line: one commander program, parsed into a plain `CliArgs`. Parsing never exits the
// process and never prints; `main` decides what to write where, so this stays testable.
import { Command, CommanderError, Option } from "commander";
import { THINKING_LEVELS } from "../ai/constants.js";
import type { ThinkingLevel } from "../ai/types.js";
import { parseRule } from "../permissions/rules.js";
import { PERMISSION_MODES, type PermissionMode } from "../permissions/types.js";

export type CliMode = "interactive" | "print" | "json" | "rpc" | "acp";

export interface CliArgs {
	/** Initial prompt: positional words, or the value of `-p`. Empty when none was given. */
	message: string;
	/** `-p` was given, or `--mode json|rpc|acp` (explicit); interactive is decided later with the TTY. */
	print: boolean;
	mode?: "json" | "rpc" | "acp";
	provider?: string;
	model?: string;
	apiKey?: string;
	thinking?: ThinkingLevel;
	continue: boolean;
	resume: boolean;
	/** A session file path or a session id. */
	session?: string;
	noSession: boolean;
	/** With -c / -r / --session: continue in a new file holding a copy of the session. */
	fork: boolean;
	tools?: string[];
	systemPrompt?: string;
	appendSystemPrompt?: string;
	/** `--rpc-full-updates`: rpc `message_update` lines carry the partial message. */
	rpcFullUpdates: boolean;
	/** `--rpc-approvals`: the rpc client answers approval_request events (else a call that would ask fails). */
	rpcApprovals: boolean;
	/** `--list-models` given; `true` lists all, a string filters. */
	listModels?: true | string;
	permissionMode?: PermissionMode;
	/** `--allow` / `--deny` rules, in order (each checked when parsed). */
	allow: string[];
	deny: string[];
	/** `--add-dir` folders, as given (main checks that they exist). */
	addDirs: string[];
	trustProject: boolean;
}

/** What parsing decided: run with args, or stop now with text for stdout/stderr and an exit code. */
export type ParsedCli = { kind: "run"; args: CliArgs } | { kind: "exit"; code: number; stdout: string; stderr: string };

function buildProgram(version: string): Command {
	return new Command()
		.name("rudder")
		.description("A terminal coding assistant: steer it while it works, queue follow-ups, stop it with Esc.")
		.version(version, "-v, --version", "print the version")
		.helpOption("-h, --help", "show this help")
		.argument("[message...]", "initial prompt")
		.option("--provider <name>", "provider to use (anthropic, openai, ollama, a models.json provider, ...)")
		.option("--model <provider/id>", "model to use: provider/id, an id, or a pattern")
		.option("--api-key <key>", "API key for the chosen provider (overrides the environment)")
		.addOption(new Option("--thinking <level>", "thinking level").choices(THINKING_LEVELS as string[]))
		.option("-c, --continue", "continue the most recent session in this folder")
		.option("-r, --resume", "choose a session to resume (non-interactive: the one used last here)")
		.option("--session <file|id>", "use this session file, or the session with this id")
		.option("--no-session", "do not save this session")
		.option("--fork", "with -c, -r or --session: continue in a new session file holding a copy (e.g. one open elsewhere)")
		.option("-p, --print [message]", "answer once on stdout and exit (piped stdin joins the prompt)")
		.addOption(
			new Option(
				"--mode <mode>",
				"output mode: json (events as JSON lines), rpc (JSON-lines commands on stdin) or acp (an Agent Client Protocol agent for editors; also `rudder acp`)",
			).choices(["json", "rpc", "acp"]),
		)
		.option("--rpc-full-updates", "rpc: message_update lines carry the partial message, as pi sends them (default: the delta only)")
		.option("--rpc-approvals", "rpc: send approval_request events and wait for the client's answer (default: a call that would ask fails)")
		.option("--tools <list>", "comma-separated tool names to enable (e.g. read,ls,grep)")
		.option("--system-prompt <text>", "replace the system prompt")
		.option("--append-system-prompt <text>", "append to the system prompt")
		.option("--list-models [search]", "list known models (filtered by search) and exit")
		.addOption(
			new Option(
				"--permission-mode <mode>",
				"auto (default where the bwrap sandbox works: commands run sandboxed without asking), ask (the default without one), auto-edit (edits run), plan (read only) or yolo (nothing asks)",
			).choices(PERMISSION_MODES as string[]),
		)
		.option("--allow <rule>", 'let matching calls run without asking, e.g. "bash(npm test*)" or "edit(src/**)" (repeatable)', collect, [])
		.option("--deny <rule>", 'refuse matching calls in every mode, e.g. "read(.env)" (repeatable)', collect, [])
		.option("--add-dir <dir>", "add a folder to the workspace (repeatable)", collect, [])
		.option("--trust-project", "let this folder's .rudder/settings.json widen permissions and its hooks run (remembered)")
		.exitOverride()
		.configureOutput({ writeOut: () => {}, writeErr: () => {} })
		.showSuggestionAfterError(true);
}

/** Parses `argv` (as in `process.argv`: node, script, ...args). */
export function parseCliArgs(argv: string[], version: string): ParsedCli {
	const program = buildProgram(version);
	// `rudder acp [flags]` is `rudder --mode acp [flags]`, as editors' agent registries launch agents.
	const argvWords = argv[2] === "acp" ? [...argv.slice(0, 2), "--mode", "acp", ...argv.slice(3)] : argv;
	let out = "";
	let err = "";
	program.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (err += s) });
	try {
		program.parse(argvWords, { from: "node" });
	} catch (error) {
		if (error instanceof CommanderError) {
			// Help and version are "errors" to commander only because we asked it not to exit.
			if (error.code === "commander.helpDisplayed" || error.code === "commander.version") {
				return { kind: "exit", code: 0, stdout: out, stderr: "" };
			}
			return {
				kind: "exit",
				code: 2,
				stdout: "",
				stderr: `rudder: ${oneLine(err || error.message).replace(/^error: /, "")} (see rudder --help)\n`,
			};
		}
		throw error;
	}
	const opts = program.opts();
	const words = program.args.join(" ");
	const printValue = typeof opts.print === "string" ? opts.print : "";
	const tools = typeof opts.tools === "string" ? splitList(opts.tools) : undefined;
	for (const [flag, rules] of [
		["--allow", opts.allow],
		["--deny", opts.deny],
	] as const) {
		for (const rule of rules as string[]) {
			try {
				parseRule(rule, flag);
			} catch (error) {
				return { kind: "exit", code: 2, stdout: "", stderr: `rudder: ${oneLine((error as Error).message)}\n` };
			}
		}
	}
	return {
		kind: "run",
		args: {
			message: [printValue, words].filter((s) => s.length > 0).join(" "),
			print: opts.print !== undefined,
			mode: opts.mode,
			provider: opts.provider,
			model: opts.model,
			apiKey: opts.apiKey,
			thinking: opts.thinking,
			continue: opts.continue === true,
			resume: opts.resume === true,
			session: typeof opts.session === "string" ? opts.session : undefined,
			noSession: opts.session === false,
			fork: opts.fork === true,
			tools,
			systemPrompt: opts.systemPrompt,
			appendSystemPrompt: opts.appendSystemPrompt,
			rpcFullUpdates: opts.rpcFullUpdates === true,
			rpcApprovals: opts.rpcApprovals === true,
			listModels: opts.listModels,
			permissionMode: opts.permissionMode,
			allow: opts.allow,
			deny: opts.deny,
			addDirs: opts.addDir,
			trustProject: opts.trustProject === true,
		},
	};
}

function collect(value: string, previous: string[]): string[] {
	return [...previous, value];
}

function splitList(value: string): string[] {
	return value
		.split(",")
		.map((s) => s.trim())
		.filter((s) => s.length > 0);
}

function oneLine(text: string): string {
	return text.replace(/\s*\n\s*/g, " ").trim();
}
