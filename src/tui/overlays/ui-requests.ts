// What the app opens when a command asks for the UI (`/model`, `/resume`, `/rewind`) or a key does
// (Esc twice): the pickers and the rewind menu's chain of them. The session does the work; these
// only choose what to show and pass the user's choice back.
import type { RuleEntry, RuleKind } from "../../permissions/rule-admin.js";
import type { RuleScope } from "../../permissions/types.js";
import type { AgentSessionApi, CommandUiRequest, RewindPointInfo } from "../../session/types.js";
import * as edit from "../input/editor-state.js";
import type { EditorHandle } from "../input/use-editor.js";
import type { PickerHandle } from "../widgets/use-picker.js";
import type { FieldPromptHandle } from "./FieldPrompt.js";
import { memoryPicker } from "./memory-picker.js";
import { addedNotice, addKindPicker, addRuleTitle, confirmRemovePicker, removedNotice, rulesPicker } from "./permissions-screen.js";
import { confirmRestorePicker, type RestoreChoice, restoreChoicePicker, rewindPointsPicker } from "./rewind-menu.js";
import { resumePicker } from "./session-picker.js";

/** What the openers need from the app. */
export interface UiRequestHost {
	session: AgentSessionApi;
	editor: EditorHandle;
	pickers: PickerHandle;
	fields: FieldPromptHandle;
	/** `/help`: the commands and keys, and the welcome panel again. */
	showHelp(): void;
	notify(level: "info" | "error", text: string): void;
	fail(error: unknown): void;
	refresh(): void;
}

/** A command's request for the UI, opened. */
export function openUiRequest(host: UiRequestHost, request: CommandUiRequest) {
	if (request === "pick-model") openModelPicker(host);
	else if (request === "pick-session") openResumePicker(host);
	else if (request === "rewind-menu") openRewindMenu(host);
	else if (request === "help") host.showHelp();
	else if (request === "permissions") openPermissionsScreen(host);
	else if (request.kind === "login-key") openLoginField(host, request.provider);
}

/**
 * `/login <provider>` without a key: a masked field asks for it. The answer goes straight to the
 * session's command, so the key is never drawn, never in the input nor in its history.
 */
export function openLoginField({ session, fields, fail }: UiRequestHost, provider: string) {
	fields.open({
		title: `API key for ${provider} (kept in auth.json, mode 0600)`,
		mask: "•",
		onSubmit: (key) => void session.submit(`/login ${provider} ${key}`, { ui: true }).catch(fail),
	});
}

export function openModelPicker({ session, pickers, fail }: UiRequestHost) {
	const models = session.availableModels();
	const { model } = session.getState();
	const isCurrent = (m: (typeof models)[number]) => m.provider === model.provider && m.id === model.id;
	pickers.open({
		title: "Pick a model",
		items: models.map((m) => ({ label: `${m.provider}/${m.id}`, detail: m.name, active: isCurrent(m) })),
		values: models,
		index: Math.max(0, models.findIndex(isCurrent)),
		onPick: (m: (typeof models)[number]) => session.setModel(m).catch(fail),
	});
}

export function openResumePicker({ session, pickers, notify, fail }: UiRequestHost) {
	// Called on the session (not passed as a bare function): AgentSession's method reads `this`.
	const sessions = session.listSessions();
	if (!sessions.length) return notify("info", "No saved sessions in this folder yet");
	// The session's own command does the resuming (and reports the outcome).
	pickers.open(resumePicker(sessions, (id) => void session.submit(`/resume ${id}`).catch(fail)));
}

/**
 * /permissions: the rules with where they live (permissions-screen.ts). Each step closes the picker it
 * came from and opens the next; after a removal or an add the list opens again, on the rule just added.
 */
export function openPermissionsScreen(host: UiRequestHost, select?: { kind: RuleKind; text: string; scope: RuleScope }) {
	const { session, pickers, fields, notify, fail } = host;
	const rules = session.permissionRules();
	const again = (next?: typeof select) => openPermissionsScreen(host, next);
	const remove = (entry: RuleEntry) =>
		pickers.open(
			confirmRemovePicker(entry, (yes) => {
				if (yes) {
					try {
						for (const removed of rules.remove(entry.text, { kind: entry.kind, scope: entry.scope }))
							notify("info", removedNotice(removed));
					} catch (error) {
						fail(error);
					}
				}
				again();
			}),
		);
	const add = () =>
		pickers.open(
			addKindPicker((kind) =>
				fields.open({
					title: addRuleTitle(kind),
					onSubmit: (text) => {
						try {
							const added = rules.add(kind, text, { origin: "the rule you typed" });
							notify("info", addedNotice(added));
							again(added);
						} catch (error) {
							// The parser's one line names the rule; the list comes back to try again.
							fail(error);
							again();
						}
					},
				}),
			),
		);
	try {
		pickers.open(rulesPicker(rules.list(), { onRemove: remove, onAdd: add, select, mode: session.getState().permissionMode }));
	} catch (error) {
		fail(error);
	}
	host.refresh();
}

/** `#text`: asks which AGENTS.md takes the line; the session's `/memory` command writes it (and reports where). */
export function openMemoryPicker(host: UiRequestHost, text: string) {
	const { session, pickers, fail } = host;
	try {
		const targets = session.memoryTargets();
		pickers.open(memoryPicker(targets, text, (scope) => void session.submit(`/memory ${scope} ${text}`).catch(fail)));
	} catch (error) {
		fail(error);
	}
	host.refresh();
}

/** /rewind and Esc twice: prompt → what to restore → (for code) confirm. See rewind-menu.ts. */
export function openRewindMenu(host: UiRequestHost) {
	const { session, pickers, notify, fail, editor } = host;
	if (session.getState().isStreaming) return notify("info", "Rewind works when the agent is idle: press Esc to stop the run first");
	const typed = editor.current().text;
	void (async () => {
		// The points wait for snapshots still running (seconds on a large tree): a menu that opened
		// after the user went on would take the keys of what they type next.
		const points = await session.rewindPoints();
		if (session.getState().isStreaming || editor.current().text !== typed)
			return notify("info", "The rewind menu was not opened: its points were ready only after you went on (/rewind opens it)");
		if (!points.length) return notify("info", "No prompts to go back to in this session yet");
		pickers.open(
			rewindPointsPicker(points, (point) =>
				pickers.open(restoreChoicePicker(point, (choice) => void restore(host, point, choice).catch(fail))),
			),
		);
		host.refresh();
	})().catch(fail);
}

const RESTORED: Record<Exclude<RestoreChoice, "cancel">, string> = {
	both: "Code and conversation",
	code: "Code",
	conversation: "Conversation",
};

/** Restores `choice` at `point`; a restore that changes files asks first (the confirm picker). */
async function restore(host: UiRequestHost, point: RewindPointInfo, choice: RestoreChoice): Promise<void> {
	if (choice === "cancel") return;
	const { session, editor, pickers, notify, fail } = host;
	const run = async () => {
		const result = await session.rewindTo(point.entryId, choice);
		const count = result?.files.length ?? 0;
		notify("info", `${RESTORED[choice]} restored${count ? ` (${count} file${count === 1 ? "" : "s"})` : ""}`);
		// The prompt comes back to the input, ready to edit and send again.
		if (result?.text !== undefined && editor.current().text === "") editor.set(edit.emptyEditor(result.text));
	};
	if (choice === "conversation") return run().catch(fail);
	const preview = await session.previewRewind(point.entryId);
	if (!preview || preview.changes.length === 0) return run().catch(fail);
	pickers.open(confirmRestorePicker(preview, (yes) => void (yes ? run().catch(fail) : undefined)));
	host.refresh();
}
