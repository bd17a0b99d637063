// Types of the agent layer; names and shapes follow pi-agent-core 0.73.1 (docs/agent-contract.md §4, §5).
import type {
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	TextContent,
	ThinkingLevel,
	Tool,
	ToolCall,
	ToolResultMessage,
} from "../ai/index.js";

/**
 * Apps add their own message kinds by declaration merging:
 * `declare module "rudder/agent" { interface CustomAgentMessages { note: {role:"note"; ...} } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

export interface AgentToolResult<TDetails = any> {
	content: (TextContent | ImageContent)[];
	details: TDetails;
	/** Runtime-only hint: when every result of a batch sets it, no automatic model call follows. */
	terminate?: boolean;
}

export type AgentToolUpdateCallback<TDetails = any> = (partialResult: AgentToolResult<TDetails>) => void;

export interface AgentTool<TParameters = any, TDetails = any> extends Tool<TParameters> {
	/** Name shown in the UI; the loop does not use it. */
	label: string;
	/** Compatibility shim run on the raw arguments before validation. */
	prepareArguments?: (rawArgs: unknown) => any;
	/** Throws on failure; the thrown message becomes an error tool result. */
	execute: (
		toolCallId: string,
		params: any,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
	) => Promise<AgentToolResult<TDetails>>;
	/** "sequential" forces the whole batch containing this tool to run one call at a time. */
	executionMode?: "sequential" | "parallel";
}

export type AgentToolCall = ToolCall;

export interface AgentContext {
	systemPrompt: string;
	messages: AgentMessage[];
	tools?: AgentTool<any>[];
}

export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: any }
	| { type: "tool_execution_update"; toolCallId: string; toolName: string; args: any; partialResult: AgentToolResult<any> }
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult<any>; isError: boolean };

export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;

export type StreamFn = (
	model: Model,
	context: import("../ai/index.js").Context,
	options?: SimpleStreamOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;

export interface BeforeToolCallContext {
	assistantMessage: AssistantMessage;
	/** The raw tool call block as the model sent it. */
	toolCall: AgentToolCall;
	/** Validated, converted copy of the arguments; may be mutated and is then executed as is. */
	args: any;
	context: AgentContext;
}

export interface BeforeToolCallResult {
	block?: boolean;
	reason?: string;
}

export interface AfterToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	args: any;
	result: AgentToolResult<any>;
	isError: boolean;
	context: AgentContext;
}

export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: any;
	isError?: boolean;
	terminate?: boolean;
}

export interface ShouldStopAfterTurnContext {
	message: AssistantMessage;
	toolResults: ToolResultMessage[];
	context: AgentContext;
	newMessages: AgentMessage[];
}

export type ToolExecutionMode = "sequential" | "parallel";
export type QueueMode = "all" | "one-at-a-time";

export interface AgentLoopConfig extends SimpleStreamOptions {
	model: Model;
	/** Turns the transcript into what the model accepts; called before every model call. */
	convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** Rewrites the messages for one request only (pruning, compaction); never written back. */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	getApiKey?: (provider: string) => string | undefined | Promise<string | undefined>;
	shouldStopAfterTurn?: (ctx: ShouldStopAfterTurnContext) => boolean | Promise<boolean>;
	getSteeringMessages?: () => Promise<AgentMessage[]>;
	getFollowUpMessages?: () => Promise<AgentMessage[]>;
	toolExecution?: ToolExecutionMode;
	// biome-ignore lint/suspicious/noConfusingVoidType: pi-agent-core's hook type; `async () => {}` must fit
	beforeToolCall?: (ctx: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined | void>;
	// biome-ignore lint/suspicious/noConfusingVoidType: as above
	afterToolCall?: (ctx: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined | void>;
	/**
	 * Ours, not the reference's: after an abort, how long a tool that ignores the signal may keep the
	 * run alive before it is detached and given an aborted result. Default 500 ms.
	 */
	abortGraceMs?: number;
}

export interface AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	/** Live array; assigning stores a shallow copy. */
	tools: AgentTool<any>[];
	/** Live array; assigning stores a shallow copy. */
	messages: AgentMessage[];
	readonly isStreaming: boolean;
	readonly streamingMessage?: AgentMessage;
	/** Replaced by a new Set on every change, never mutated in place. */
	readonly pendingToolCalls: ReadonlySet<string>;
	readonly errorMessage?: string;
}

export type { ThinkingLevel };
