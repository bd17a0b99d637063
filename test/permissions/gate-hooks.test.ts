// The permission gate with the user's PreToolUse hooks (real scripts through the hooks engine): a hook's
// "allow" skips the prompt but never a deny rule, plan mode or a protected folder; "ask" forces the
// prompt; "deny" and exit 2 refuse with the hook's words for the model.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BeforeToolCallContext } from "../../src/agent/types.js";
import { toolCallVerdict } from "../../src/extensions/hooks/result.js";
import type { HookCommand } from "../../src/extensions/hooks/types.js";
import { UserHooks } from "../../src/extensions/hooks/user-hooks.js";
import { type ApprovalRequest, PermissionGate } from "../../src/permissions/gate.js";
import { parseRule } from "../../src/permissions/rules.js";
import type { PermissionMode } from "../../src/permissions/types.js";
import { createWorkspace } from "../../src/permissions/workspace.js";
import { findShell } from "../../src/tools/shell.js";

let root: string;
let ws: string;
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "rudder-gate-hooks-")));
	ws = join(root, "ws");
	mkdirSync(join(ws, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A hook that answers every call with this decision (JSON), or blocks with exit 2. */
function answering(answer: "allow" | "deny" | "ask" | "exit2"): HookCommand {
	const json = (d: string) =>
		`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${d}","permissionDecisionReason":"hook says ${d}"}}'`;
	const command = answer === "exit2" ? 'echo "no: $(jq -r .tool_input.command)" >&2; exit 2' : json(answer);
	return { event: "PreToolUse", matcher: "", command, timeoutSeconds: 30, file: join(root, "settings.json"), project: false };
}

function gateWith(hook: HookCommand | undefined, options: { mode?: PermissionMode; deny?: string[]; canAsk?: boolean } = {}) {
	const asked: ApprovalRequest[] = [];
	const hooks = new UserHooks({
		hooks: hook ? [hook] : [],
		cwd: ws,
		env: { ...process.env, RUDDER_HOME: join(root, "home") },
		shell: findShell(),
		passEnv: [],
		onEvent: () => {},
	});
	const gate = new PermissionGate(
		{ mode: options.mode ?? "ask", allow: [], deny: (options.deny ?? []).map((r) => parseRule(r, "test")), workspace: createWorkspace(ws) },
		{
			toolHook: async (call, signal) =>
				toolCallVerdict(
					await hooks.run(
						{ event: "PreToolUse", tool: call.tool, args: call.args, toolCallId: call.id },
						{ sessionId: "s", transcriptPath: "", cwd: ws },
						signal,
					),
				),
			ask:
				options.canAsk === false
					? undefined
					: async (request) => {
							asked.push(request);
							return { decision: "deny", reason: "user said no" };
						},
			saveProjectRule: () => {},
			sandbox: () => "none",
			network: false,
			modeName: "test mode",
			sandboxEvidence: () => undefined,
		},
	);
	let id = 0;
	const check = (tool: string, args: Record<string, unknown>) =>
		gate.beforeToolCall({
			toolCall: { type: "toolCall", id: `c${++id}`, name: tool, arguments: args },
			args,
		} as unknown as BeforeToolCallContext);
	return { check, asked };
}

describe("permission gate with PreToolUse hooks", () => {
	it("allow skips the prompt; without a hook the same call asks", async () => {
		const plain = gateWith(undefined);
		expect(await plain.check("bash", { command: "npm test" })).toEqual({ block: true, reason: "The user denied this call: user said no" });
		expect(plain.asked).toHaveLength(1);
		const hooked = gateWith(answering("allow"));
		expect(await hooked.check("bash", { command: "npm test" })).toBeUndefined();
		expect(await hooked.check("write", { path: "a.txt", content: "x" })).toBeUndefined();
		expect(hooked.asked).toEqual([]);
	});

	it("allow never lifts a deny rule, plan mode or a protected folder", async () => {
		const denied = gateWith(answering("allow"), { deny: ["bash(rm *)"] });
		expect(await denied.check("bash", { command: "rm -rf x" })).toMatchObject({
			block: true,
			reason: expect.stringContaining('denied by the rule "bash(rm *)"'),
		});
		const plan = gateWith(answering("allow"), { mode: "plan" });
		expect(await plan.check("write", { path: "a.txt", content: "x" })).toMatchObject({
			block: true,
			reason: expect.stringContaining('"plan" forbids'),
		});
		const protectedFolder = gateWith(answering("allow"));
		expect(await protectedFolder.check("write", { path: ".git/config", content: "x" })).toMatchObject({ block: true });
		expect(protectedFolder.asked.map((r) => r.reason)).toEqual([expect.stringContaining("protected folder")]);
	});

	it("ask forces the prompt even where the policy allows (yolo, a read inside); without a prompt it is refused", async () => {
		const yolo = gateWith(answering("ask"), { mode: "yolo" });
		await yolo.check("read", { path: "a.txt" });
		expect(yolo.asked.map((r) => r.reason)).toEqual(["a hook asks first: hook says ask"]);
		const headless = gateWith(answering("ask"), { canAsk: false });
		expect(await headless.check("read", { path: "a.txt" })).toMatchObject({
			block: true,
			reason: expect.stringContaining("a hook asks first"),
		});
	});

	it("deny and exit 2 refuse, with the hook's words for the model", async () => {
		const deny = gateWith(answering("deny"), { mode: "yolo" });
		expect(await deny.check("read", { path: "a.txt" })).toEqual({ block: true, reason: "A hook refused this call: hook says deny" });
		const exit2 = gateWith(answering("exit2"));
		expect(await exit2.check("bash", { command: "make deploy" })).toEqual({
			block: true,
			reason: "A hook refused this call: no: make deploy",
		});
		expect(exit2.asked).toEqual([]);
	});
});
