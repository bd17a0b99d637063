// The `todo_write` tool: the model sends the whole todo list each time it changes (Claude Code's
// TodoWrite). The list is the session's (todo-list.ts); the result repeats it so the model sees it.
import { type Static, Type } from "typebox";
import type { AgentTool } from "../../agent/types.js";
import { formatTodos, type TodoItem, type TodoList } from "./todo-list.js";

const todoSchema = Type.Object({
	todos: Type.Array(
		Type.Object({
			content: Type.String({ minLength: 1, description: 'What to do, imperative ("Run the tests")' }),
			status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed")]),
		}),
		{ description: "The whole list, in order; it replaces the previous one" },
	),
});

export type TodoWriteInput = Static<typeof todoSchema>;

export function createTodoWriteTool(list: TodoList): AgentTool<typeof todoSchema, { todos: TodoItem[] }> {
	return {
		name: "todo_write",
		label: "todos",
		description:
			"Write the task's todo list (the whole list each time: content and status pending, in_progress or completed). Use it for work of three or more steps; keep one item in_progress; mark items completed as soon as they are done. The user sees it live.",
		parameters: todoSchema,
		execute: async (_id, params: TodoWriteInput) => {
			list.write(params.todos);
			const text = params.todos.length === 0 ? "The todo list is now empty." : `Todo list updated:\n${formatTodos(params.todos)}`;
			return { content: [{ type: "text", text }], details: { todos: params.todos } };
		},
	};
}
