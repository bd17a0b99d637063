// The interactive app: history above (written once), the live region below (the streaming tail,
// running tools, the queue, the input, the footer), kept shorter than the terminal. It renders session
// state and calls session methods; no business logic lives here. Its hooks are in app-hooks.ts.
import { Box, Text } from "ink";
import { useEffect, useMemo, useReducer, useState } from "react";
import { sanitizeTerminalText } from "../../safety/sanitize.js";
import type { NotificationSettings } from "../../session/settings.js";
import type { AgentSessionApi, SubAgentInfo } from "../../session/types.js";
import { frameCounts, liveRegionFor, MAX_INPUT_ROWS, MAX_QUEUE_ROWS, MAX_TOOL_ROWS, tailBudget } from "../ink/index.js";
import { CompletionMenu, menuRows as completionRows } from "../input/CompletionMenu.js";
import { InputBox, inputBoxRows, inputRows } from "../input/InputBox.js";
import { type InputHistory, openInputHistory } from "../input/input-history.js";
import { useEditor } from "../input/use-editor.js";
import { hintLine, keyLabel } from "../keys/key-hints.js";
import { DEFAULT_KEY_BINDINGS, type KeyBindings } from "../keys/keybindings.js";
import { ApprovalPrompt, type ApprovalView, approvalRows, pagerSize } from "../overlays/ApprovalPrompt.js";
import { ElicitationForm, elicitationRows } from "../overlays/ElicitationForm.js";
import { FieldPrompt, fieldPromptRows } from "../overlays/FieldPrompt.js";
import { FirstStart, welcomeRows } from "../overlays/first-start.js";
import { PlanPrompt, planRows } from "../overlays/PlanPrompt.js";
import { PAGER_FRAME_ROWS, TranscriptPager } from "../overlays/TranscriptPager.js";
import { Footer, footerText } from "../status/Footer.js";
import { LiveStatus, shellStatusRows } from "../status/LiveStatus.js";
import { useRunNotification } from "../status/run-notification.js";
import { TodoLines, todoLines } from "../status/TodoLines.js";
import { color, theme } from "../text/theme.js";
import { History } from "../transcript/History.js";
import { PendingTools, pendingToolRows, type RowsBelow } from "../transcript/PendingTools.js";
import { QueueLines, queueLines } from "../transcript/QueueLines.js";
import type { RenderHints } from "../transcript/render/hints.js";
import { LiveTailMessage, TAIL_MARGIN_ROWS } from "../transcript/StreamingMessage.js";
import type { SessionView } from "../transcript/session-view.js";
import { steeredAgent, subAgentLines } from "../transcript/sub-agent-lines.js";
import { useHistoryBatches } from "../transcript/use-history-batches.js";
import { Picker, pickerRows } from "../widgets/Picker.js";
import {
	useBusyTick,
	useClearOnNewSession,
	useExternalEditor,
	useFlashStatus,
	useHelp,
	useInputCompletion,
	useKeyInput,
	useRecallFailedPrompt,
	useRewrapOnWidthChange,
	useSessionEvents,
	useStartup,
	useTerminalSize,
	useTerminalWriters,
} from "./app-hooks.js";
import { callPosition } from "./call-position.js";
import { useApprovalPrompt } from "./use-approval-prompt.js";
import { useElicitationForm } from "./use-elicitation-form.js";
import { useInputController } from "./use-input-controller.js";
import { useSession } from "./use-session.js";

export interface AppProps {
	session: AgentSessionApi;
	onExit: (code: number) => void;
	/** Lines printed into history before anything else (startup warnings, the first-start help). */
	notices?: string[];
	initialPrompt?: string;
	/** Input history; defaults to the file under the data folder. */
	history?: InputHistory;
	/** Terminal size override (tests); defaults to stdout's, following resizes. */
	size?: { rows: number; columns: number };
	/** The key table (defaults plus keybindings.json); the defaults when absent. */
	keyBindings?: KeyBindings;
	/** Config problems found as the app starts (keybindings.json), shown first, one warning each. */
	configWarnings?: string[];
	/** The `notifications` setting: a desktop notification when a long run ends (off when absent). */
	notifications?: NotificationSettings;
	/** Opens the session picker at start (`rudder -r`). */
	openResumePicker?: boolean;
	/**
	 * Show the welcome panel (first-start.tsx) above the input until the first prompt of this start (a
	 * resumed transcript counts as the start), and again after /help.
	 */
	welcome?: boolean;
}

/** The live region's key hints, from the key table: " · Enter steers · Alt+Enter queues · Esc stops". */
function keyHints(bindings: KeyBindings): { working: string; shell: string; render: RenderHints } {
	const line = (parts: Parameters<typeof hintLine>[1]) => {
		const text = hintLine(bindings, parts);
		return text ? ` · ${text}` : "";
	};
	return {
		working: line([
			["submit", "steers"],
			["followUp", "queues"],
			["abort", "stops"],
		]),
		shell: line([["abort", "stops"]]),
		render: { expandKey: keyLabel(bindings, "toggleToolOutput"), recallKey: keyLabel(bindings, "historyUp") },
	};
}

/** Rows of the todo checklist above the input during a run. */
const MAX_TODO_ROWS = 6;

/**
 * Under each running `task` call, its sub-agents (and theirs, nested), one live line each; the selected
 * one (the input steers it) marked. Undefined for other tools.
 */
function subAgentsBelow(agents: readonly SubAgentInfo[], now: number, selected: string | undefined): RowsBelow {
	return (tool) => {
		if (tool.name !== "task") return undefined;
		const mine = agents.filter((a) => a.parentToolCallId === tool.id);
		const ids = new Set(mine.map((a) => a.agentId));
		const nested = agents.filter((a) => a.parentAgentId !== undefined && ids.has(a.parentAgentId));
		return subAgentLines([...mine, ...nested], now, selected);
	};
}

/** What the live region holds this frame, and the rows the streaming tail may use. */
interface LiveLayout {
	queue: string[];
	tools: ReturnType<typeof pendingToolRows>;
	/** Rows the streaming tail may take. */
	tail: number;
}

/** Splits the terminal's rows between the live region's parts; the streaming tail gets what is left. */
function liveLayout(p: {
	size: { rows: number };
	view: SessionView;
	inputRows: number;
	overlayRows: number;
	statusRows: number;
	/** The call whose approval is open: the prompt shows it whole, so it is not a running row too. */
	asking?: string;
	below: RowsBelow;
}): LiveLayout {
	const queue = queueLines(p.view.steering, p.view.followUp, MAX_QUEUE_ROWS);
	const tools = pendingToolRows(
		[...p.view.tools.values()].filter((t) => t.id !== p.asking),
		MAX_TOOL_ROWS,
		p.below,
	);
	const toolRows = tools.reduce((n, t) => n + 1 + t.output.length + t.agents.length, 0);
	const budget = tailBudget({
		rows: p.size.rows,
		inputRows: p.inputRows,
		menuRows: p.overlayRows,
		queueRows: queue.length,
		toolRows,
		statusRows: p.statusRows,
	});
	return { queue, tools, tail: Math.max(0, budget - TAIL_MARGIN_ROWS) };
}

/** What the empty input says: who Enter reaches, and the key that picks a sub-agent while some run. */
function placeholder(streaming: boolean, steered: string | undefined, selectKey: string | undefined): string {
	if (!streaming) return "ask, /command, @file, !shell";
	const pick = selectKey ? ` (${selectKey}: ${steered ? "next sub-agent or the main agent" : "steer a sub-agent"})` : "";
	return steered ? `steer sub-agent ${steered}…${pick}` : `steer the agent…${pick}`;
}

export function App(props: AppProps) {
	const { session } = props;
	const { view, state, liveTick } = useSession(session);
	const [startMessages] = useState(() => session.getState().messages.length);
	const size = useTerminalSize(props.size);
	const editor = useEditor();
	const history = useMemo(() => props.history ?? openInputHistory(), [props.history]);
	const [, refresh] = useReducer((n: number) => n + 1, 0);
	const writers = useTerminalWriters();
	const bindings = props.keyBindings ?? DEFAULT_KEY_BINDINGS;
	const hints = useMemo(() => keyHints(bindings), [bindings]);
	const { batches, epoch, reprint } = useHistoryBatches(view.history, writers, {
		region: liveRegionFor(liveTick).history,
		columns: size.columns,
		hints: hints.render,
		from: view.sessionStart,
		writable: () => view.tools.size === 0 && view.shells.size === 0,
	});
	useRewrapOnWidthChange(size.columns, state.phase.kind === "idle", reprint);
	const editExternally = useExternalEditor(writers.raw);
	useRunNotification(session, props.notifications, writers.raw);
	const menu = useInputCompletion(editor.state, session, state.cwd);
	const pending = state.pendingApproval;
	const approvalMaxRows = Math.max(6, size.rows - 6);
	const approvalSize = { maxRows: approvalMaxRows, columns: size.columns };
	const approval = useApprovalPrompt(session, pending, refresh, {
		bindings,
		pager: () => {
			const request = session.getState().pendingApproval;
			return request ? pagerSize({ request, ...approvalSize }) : { rows: 0, page: 1 };
		},
	});
	const asked = state.pendingElicitation;
	const elicitation = useElicitationForm(session, asked, refresh, bindings);
	const status = useFlashStatus();
	const helpShown = useHelp(session, view, bindings, refresh, state.messages.length);
	// The sub-agent transcript pager takes the screen but the footer.
	const pagerPage = Math.max(3, size.rows - PAGER_FRAME_ROWS - 2);
	const {
		onRaw,
		picker,
		setPickerQuery,
		field,
		setFieldValue,
		refuseFieldPaste,
		transcriptPager,
		refreshTranscriptPager,
		openResumePicker,
	} = useInputController({
		bindings,
		session,
		view,
		editor,
		history,
		menu,
		exit: props.onExit,
		redraw: reprint,
		refresh,
		flash: status.flash,
		showHelp: helpShown.show,
		editExternally,
		approval,
		elicitation,
		pagerSize: () => ({ page: pagerPage, columns: size.columns }),
	});
	// An open sub-agent pager follows its sub-agent: new messages and its status as they come.
	// biome-ignore lint/correctness/useExhaustiveDependencies: state.subagents: each change of a sub-agent's row is the cue
	useEffect(() => {
		if (transcriptPager) refreshTranscriptPager();
	}, [state.subagents]);
	const prepareForReply = useKeyInput(session, onRaw);
	useStartup({ ...props, view, refresh, prepareForReply, openResumePicker: props.openResumePicker ? openResumePicker : undefined });
	useSessionEvents(session, props.onExit, editor);
	useClearOnNewSession(session, reprint);
	useRecallFailedPrompt(session, history);
	// The run phase covers streaming, tools, a retry wait, an approval and a compaction.
	const live = useMemo(() => ({ tick: liveTick, appClocks: () => view.tools.size > 0 }), [liveTick, view]);
	useBusyTick(state.phase.kind !== "idle" || view.tools.size > 0 || view.shells.size > 0, refresh, live);

	const now = Date.now();
	// Same editor state and width → same array, so the memoised InputBox skips streaming frames.
	const rows = useMemo(() => inputRows(editor.state, Math.max(10, size.columns - 2), MAX_INPUT_ROWS), [editor.state, size.columns]);
	const approvalView: ApprovalView | undefined =
		pending && approval.state
			? { request: pending, state: approval.state, ...approvalSize, bindings, position: callPosition(state.messages, pending.toolCallId) }
			: undefined;
	const approvalHeight = approvalView ? approvalRows(approvalView) : 0;
	const paused = approvalView ? "input paused for the approval · what you type waits here" : undefined;
	const showWelcome = !state.isStreaming && (helpShown.shown || (props.welcome === true && state.messages.length === startMessages));
	const plan = state.pendingPlan;
	const planHeight = plan ? planRows(plan, approvalMaxRows) : 0;
	const form = asked && elicitation.state && !pending ? { request: asked, state: elicitation.state } : undefined;
	const formHeight = form ? elicitationRows(form.request, form.state, approvalMaxRows) : 0;
	const todos = state.isStreaming ? todoLines(state.todos ?? [], MAX_TODO_ROWS) : [];
	const steered = steeredAgent(state.subagents, view.selectedAgent);
	const below = subAgentsBelow(state.subagents ?? [], now, steered);
	const { queue, tools, tail } = liveLayout({
		size,
		view,
		inputRows: inputBoxRows(rows, paused),
		overlayRows:
			(field ? fieldPromptRows(field) : picker ? pickerRows(picker, size.columns, bindings) : completionRows(menu.items.length)) +
			approvalHeight +
			planHeight +
			formHeight,
		asking: pending?.toolCallId,
		statusRows:
			(state.isStreaming ? 1 : 0) +
			shellStatusRows(view.shells) +
			(showWelcome ? welcomeRows(state.model) : 0) +
			(status.text ? 1 : 0) +
			todos.length,
		below,
	});

	const selectHint = state.subagents?.some((a) => a.status === "running") ? keyLabel(bindings, "selectAgent") : undefined;
	frameCounts?.add("app");
	frameCounts?.changed("app", {
		structure: view.structure,
		history: view.history.length,
		phase: state.phase,
		streaming: state.isStreaming,
		footer: footerText(state),
		queue: queue.join("\n"),
		tools: view.tools.size,
		shells: view.shells.size,
		writing: view.tail.writingToolCall,
		editor: editor.state,
		status: status.text,
		tail,
	});
	return (
		<>
			<History key={epoch} items={batches} columns={size.columns} hints={hints.render} />
			{/* A question that waits (approval, plan, form) takes the screen from the pager, as it takes the keys. */}
			{transcriptPager && !approvalView && !plan && !form ? (
				<Box flexDirection="column">
					<TranscriptPager pager={transcriptPager} page={pagerPage} bindings={bindings} />
					<Footer state={state} />
				</Box>
			) : (
				<Box flexDirection="column">
					{showWelcome ? <FirstStart model={state.model} models={session.availableModels()} /> : null}
					<LiveTailMessage view={view} liveTick={liveTick} columns={size.columns} maxRows={tail} />
					{view.tail.writingToolCall ? <Text dimColor>{`… writing ${sanitizeTerminalText(view.tail.writingToolCall)} call`}</Text> : null}
					<PendingTools tools={tools.map((t) => t.tool)} now={now} maxRows={MAX_TOOL_ROWS} below={below} />
					<LiveStatus
						working={state.isStreaming && !view.tail.writingToolCall}
						phase={state.phase}
						shells={view.shells}
						now={now}
						columns={size.columns}
						hints={hints}
						liveTick={liveTick}
					/>
					<QueueLines lines={queue} />
					<TodoLines lines={todos} />
					{approvalView ? <ApprovalPrompt {...approvalView} /> : null}
					{plan && !pending ? <PlanPrompt request={plan} maxRows={approvalMaxRows} /> : null}
					{form ? <ElicitationForm request={form.request} state={form.state} maxRows={approvalMaxRows} /> : null}
					<InputBox rows={rows} placeholder={placeholder(state.isStreaming, steered, selectHint)} paused={paused} />
					{field ? <FieldPrompt field={field} onChange={setFieldValue} onRefused={refuseFieldPaste} bindings={bindings} /> : null}
					{picker ? <Picker picker={picker} onQuery={setPickerQuery} bindings={bindings} columns={size.columns} /> : null}
					{!picker && menu.items.length > 0 ? <CompletionMenu items={menu.items} selected={menu.selected} bindings={bindings} /> : null}
					{status.text ? <Text color={color(theme.warning)}>{status.text}</Text> : null}
					<Footer state={state} />
				</Box>
			)}
		</>
	);
}
