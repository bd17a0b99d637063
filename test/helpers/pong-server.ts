// A TCP server on 127.0.0.1 answering "pong" to every connection: a command that reaches it had network.
import { type AddressInfo, createServer } from "node:net";

/** Runs `body` with the server's port, and closes the server after it. */
export async function withPongServer<T>(body: (port: number) => Promise<T>): Promise<T> {
	const listener = createServer((socket) => socket.end("pong\n"));
	await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
	try {
		return await body((listener.address() as AddressInfo).port);
	} finally {
		await new Promise<void>((resolve) => listener.close(() => resolve()));
	}
}
