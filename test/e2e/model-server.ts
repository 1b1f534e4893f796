// A scripted model on 127.0.0.1 that speaks the four APIs the real CLIs
// use (Anthropic Messages, OpenAI Responses, OpenAI Chat Completions,
// Gemini streamGenerateContent, all as SSE). The first turn asks for one shell command; once a tool result
// comes back it answers with text and remembers what the tool returned, so a
// test can tell loom's denial from the CLI's own guards.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelServer {
  url: string;
  port: number;
  toolResults: string[];
  requests: number;
  /** Tool names offered in the Chat Completions requests seen (which tool the CLI calls its shell). */
  toolsOffered: string[];
  close(): Promise<void>;
}

/** Instead of a shell command: call this tool with these arguments (Chat Completions only). */
export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

// The shell tool each Chat Completions CLI offers, by name: OpenCode/Kilo bash, Copilot bash, Qwen run_shell_command, droid Execute.
const SHELL_TOOLS = ['bash', 'run_shell_command', 'Execute', 'shell'];

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Arguments for a shell tool from its schema: the command, and a plain value for every other required field. */
function argsFor(schema: JsonSchema | undefined, command: string): Record<string, unknown> {
  const out: Record<string, unknown> = { command };
  for (const name of schema?.required ?? []) {
    if (name === 'command') continue;
    const p = schema?.properties?.[name] ?? {};
    const type = Array.isArray(p.type) ? p.type[0] : p.type;
    out[name] = p.enum?.length ? (p.enum.includes('low') ? 'low' : p.enum[0]) : type === 'boolean' ? false : type === 'number' || type === 'integer' ? 60000 : type === 'object' ? {} : type === 'array' ? [] : 'e2e';
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let b = '';
    req.on('data', (d) => (b += d));
    req.on('end', () => resolve(b));
  });
}

function sse(res: ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`);
  res.end();
}

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).join('\n');
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return textOf(o.text ?? o.content ?? o.output ?? JSON.stringify(o));
  }
  return String(v ?? '');
}

// ---- Anthropic Messages (Claude Code)
function anthropic(body: Record<string, unknown>, command: string, s: ModelServer, res: ServerResponse): void {
  const messages = (body.messages as { role: string; content: unknown }[]) ?? [];
  const tools = (body.tools as { name: string }[]) ?? [];
  const last = messages[messages.length - 1];
  const results = Array.isArray(last?.content) ? (last.content as { type: string; content?: unknown }[]).filter((c) => c.type === 'tool_result') : [];
  for (const r of results) s.toolResults.push(textOf(r.content));
  const wantsTool = tools.some((t) => t.name === 'Bash') && results.length === 0;
  const id = `msg_${Date.now()}`;
  const usage = { input_tokens: 10, output_tokens: 5 };
  const message = { id, type: 'message', role: 'assistant', model: String(body.model ?? 'claude'), content: [], stop_reason: null, stop_sequence: null, usage };
  const events: { event: string; data: unknown }[] = [{ event: 'message_start', data: { type: 'message_start', message } }];
  if (wantsTool) {
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_${Date.now()}`, name: 'Bash', input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ command, description: 'e2e' }) } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } } },
    );
  } else {
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } } },
    );
  }
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  if (body.stream === false) {
    const content = wantsTool ? [{ type: 'tool_use', id: `toolu_${Date.now()}`, name: 'Bash', input: { command, description: 'e2e' } }] : [{ type: 'text', text: 'done' }];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content, stop_reason: wantsTool ? 'tool_use' : 'end_turn' }));
    return;
  }
  sse(res, events);
}

// ---- OpenAI Responses (Codex)
function responses(body: Record<string, unknown>, command: string, s: ModelServer, res: ServerResponse): void {
  const input = (body.input as { type?: string; output?: unknown }[]) ?? [];
  const outputs = input.filter((i) => i.type === 'function_call_output');
  const callsSoFar = input.filter((i) => i.type === 'function_call').length;
  if (outputs.length) s.toolResults.push(textOf(outputs[outputs.length - 1].output));
  const id = `resp_${Date.now()}`;
  const item =
    callsSoFar === 0
      ? { type: 'function_call', id: `fc_${Date.now()}`, call_id: `call_${Date.now()}`, name: 'exec_command', arguments: JSON.stringify({ cmd: command }), status: 'completed' }
      : { type: 'message', id: `msg_${Date.now()}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] };
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'in_progress', model: String(body.model ?? 'gpt'), output: [] as unknown[] };
  sse(res, [
    { event: 'response.created', data: { type: 'response.created', response } },
    { event: 'response.in_progress', data: { type: 'response.in_progress', response } },
    { event: 'response.output_item.added', data: { type: 'response.output_item.added', output_index: 0, item } },
    { event: 'response.output_item.done', data: { type: 'response.output_item.done', output_index: 0, item } },
    { event: 'response.completed', data: { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } } } },
  ]);
}

// ---- OpenAI Chat Completions (OpenCode, Kilo Code, Copilot CLI, Qwen Code, droid)
function chat(body: Record<string, unknown>, command: string | ToolCall, s: ModelServer, res: ServerResponse): void {
  const messages = (body.messages as { role: string; content?: unknown; tool_calls?: unknown[] }[]) ?? [];
  const tools = ((body.tools as { function?: { name: string; parameters?: JsonSchema } }[]) ?? []).map((t) => t.function).filter((f): f is { name: string; parameters?: JsonSchema } => Boolean(f));
  for (const t of tools) if (!s.toolsOffered.includes(t.name)) s.toolsOffered.push(t.name);
  const results = messages.filter((m) => m.role === 'tool');
  const asked = messages.some((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length);
  if (results.length) s.toolResults.push(textOf(results[results.length - 1].content));
  let call: { name: string; arguments: string } | undefined;
  if (!asked && !results.length) {
    if (typeof command !== 'string') {
      if (tools.some((t) => t.name === command.tool)) call = { name: command.tool, arguments: JSON.stringify(command.args) };
    } else {
      const shell = SHELL_TOOLS.map((n) => tools.find((t) => t.name === n)).find(Boolean);
      if (shell) call = { name: shell.name, arguments: JSON.stringify(argsFor(shell.parameters, command)) };
    }
  }
  const id = `chatcmpl-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = String(body.model ?? 'mock-model');
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const toolCall = call && { index: 0, id: `call_${Date.now()}`, type: 'function', function: call };
  if (body.stream !== true) {
    const message = toolCall ? { role: 'assistant', content: null, tool_calls: [{ id: toolCall.id, type: 'function', function: call }] } : { role: 'assistant', content: 'done' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: toolCall ? 'tool_calls' : 'stop' }], usage }));
    return;
  }
  const chunk = (delta: unknown, finish: string | null, extra: Record<string, unknown> = {}) => ({ data: { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra } });
  const events = toolCall
    ? [chunk({ role: 'assistant', content: null, tool_calls: [toolCall] }, null), chunk({}, 'tool_calls', { usage })]
    : [chunk({ role: 'assistant', content: 'done' }, null), chunk({}, 'stop', { usage })];
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const e of events) res.write(`data: ${JSON.stringify(e.data)}\n\n`);
  res.end('data: [DONE]\n\n');
}

// ---- Gemini streamGenerateContent
function gemini(body: Record<string, unknown>, command: string, s: ModelServer, res: ServerResponse): void {
  const contents = (body.contents as { role: string; parts: { functionResponse?: { response?: unknown } }[] }[]) ?? [];
  const tools = JSON.stringify(body.tools ?? []);
  const lastParts = contents[contents.length - 1]?.parts ?? [];
  const responsesGiven = lastParts.filter((p) => p.functionResponse);
  for (const p of responsesGiven) s.toolResults.push(textOf(p.functionResponse?.response));
  const wantsTool = tools.includes('run_shell_command') && responsesGiven.length === 0 && !contents.some((c) => c.parts?.some((p) => p.functionResponse));
  const parts = wantsTool ? [{ functionCall: { name: 'run_shell_command', args: { command, description: 'e2e' } } }] : [{ text: 'done' }];
  sse(res, [{ data: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } } }]);
}

export async function startModelServer(command: string | ToolCall): Promise<ModelServer> {
  const state: ModelServer = { url: '', port: 0, toolResults: [], requests: 0, toolsOffered: [], close: async () => undefined };
  const shellCommand = typeof command === 'string' ? command : '';
  const server: Server = createServer(async (req, res) => {
    state.requests++;
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      body = {};
    }
    const url = req.url ?? '';
    if (req.method === 'POST' && url.startsWith('/v1/messages')) return anthropic(body, shellCommand, state, res);
    if (req.method === 'POST' && url.startsWith('/v1/responses')) return responses(body, shellCommand, state, res);
    if (req.method === 'POST' && url.includes('/chat/completions')) return chat(body, command, state, res);
    if (req.method === 'POST' && url.includes(':streamGenerateContent')) return gemini(body, shellCommand, state, res);
    if (req.method === 'GET' && /\/models\/?$/.test(url)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'loom' }] }));
    }
    if (req.method === 'POST' && url.includes(':generateContent')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: '{}' }] }, finishReason: 'STOP' }] }));
    }
    if (url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ totalTokens: 10 }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url}` } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
