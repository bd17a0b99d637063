// The agent layer's public surface, named as in pi-agent-core 0.73.1 so code ports by changing an import.

export { AssistantMessageEventStream, createAssistantMessageEventStream, EventStream } from "../ai/event-stream.js";
// What users of the Agent need from the model layer without a second import.
export { streamSimple } from "../ai/stream.js";
export type {
	AssistantMessage,
	AssistantMessageEvent,
	ImageContent,
	Message,
	Model,
	SimpleStreamOptions,
	TextContent,
	ThinkingContent,
	ThinkingLevel,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "../ai/types.js";
export { validateToolArguments } from "../ai/validation.js";
export * from "./agent.js";
export * from "./agent-loop.js";
export * from "./pending-message-queue.js";
export { type ProxyAssistantMessageEvent, type ProxyStreamOptions, streamProxy } from "./proxy.js";
export * from "./types.js";
