// The session's todo list: the model writes the whole list each time (`todo_write`); the session keeps
// the latest one, saves it as a `todo` entry of the session file, shows it (`/session`, rpc
// `get_state`, the TUI above the input) and puts it back into the context after a compaction.

export type TodoStatus = "pending" | "in_progress" | "completed";

export interface TodoItem {
	content: string;
	status: TodoStatus;
}

export const TODO_STATUSES: readonly TodoStatus[] = ["pending", "in_progress", "completed"];

const MARK: Record<TodoStatus, string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]" };

/** One line per item, `[x]` done, `[~]` in progress, `[ ]` pending. Empty for no items. */
export function formatTodos(items: readonly TodoItem[]): string {
	return items.map((item) => `${MARK[item.status]} ${item.content}`).join("\n");
}

/** The list as the model sees it after a compaction; empty when there is none. */
export function todoReminder(items: readonly TodoItem[]): string {
	if (items.length === 0) return "";
	return `The todo list (from todo_write) as it stands:\n${formatTodos(items)}`;
}

export interface TodoListDeps {
	/** Saves the new list (a `todo` entry of the session file). */
	save: (items: readonly TodoItem[]) => void;
	/** Tells listeners (the `todo_updated` event). */
	changed: (items: readonly TodoItem[]) => void;
}

export class TodoList {
	private list: readonly TodoItem[] = [];

	constructor(private readonly deps: TodoListDeps) {}

	get items(): readonly TodoItem[] {
		return this.list;
	}

	/** The model's new list: saved and announced. */
	write(items: readonly TodoItem[]): void {
		this.list = items.map((i) => ({ content: i.content, status: i.status }));
		this.deps.save(this.list);
		this.deps.changed(this.list);
	}

	/** The list of a loaded session (its branch's last `todo` entry), or none for a fresh one. */
	restore(items: readonly TodoItem[]): void {
		this.list = items;
		this.deps.changed(this.list);
	}
}
