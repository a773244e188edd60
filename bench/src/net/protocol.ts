/** IPC between the bench and its network process. */
export type NetworkRequest =
  | {
      readonly type: "latency";
      readonly id: number;
      readonly ms: number;
      readonly jitterMs: number;
    }
  | { readonly type: "counters"; readonly id: number }
  | { readonly type: "close"; readonly id: number };

export interface Counters {
  /** HTTP requests the rest-server answered (a push stream is one). */
  readonly http: number;
  /** Redis commands the rest-server ran for them. */
  readonly restCommands: number;
  readonly commands: Readonly<Record<string, number>>;
  /** Commands TCP clients sent through the proxy. */
  readonly wire: number;
}

export type NetworkReply =
  | { readonly type: "ready"; readonly restUrl: string; readonly proxyPort: number }
  | { readonly type: "ok"; readonly id: number }
  | ({ readonly type: "counters"; readonly id: number } & Counters)
  | { readonly type: "error"; readonly id: number; readonly message: string };
