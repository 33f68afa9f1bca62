/**
 * `POST /new/endpoint/`: the greeting tool, the template for adding a tool.
 *
 * @module
 */
import { z } from "zod";
import { greet } from "../lib/greeting.ts";
import { defineTool, independentTools } from "./tool.ts";

export const NewEndpointRequest = z.object({
  name: z.string().meta({ description: "The name to include in the message.", example: "Ada" }),
}).meta({ id: "NewEndpointRequest" });

export const NewEndpointResponse = z.object({
  message: z.string().meta({ description: "A welcome message.", example: "Hello, Ada!" }),
}).meta({ id: "NewEndpointResponse" });

/** `/new/endpoint/`: it needs nothing but its input. */
export const greetingTools = independentTools("the greeting tool", [
  defineTool({
    name: "new_endpoint",
    role: "reader",
    path: "/new/endpoint/",
    summary: "Greet someone by name",
    description: 'Returns a welcome message for `name`: {"name": "Ada"} gives {"message": "Hello, Ada!"}.',
    input: NewEndpointRequest,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    example: () => ({ name: "Ada" }),
    output: NewEndpointResponse,
    handle: ({ name }) => ({ message: greet(name) }),
  }),
]);
