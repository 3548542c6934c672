import { Component, type ErrorInfo, type ReactNode } from 'react';
import type { Translate } from '../../src/shared/translate';
import { ErrorView } from './ErrorView';

interface Props {
  readonly t: Translate;
  readonly supportUrl: string;
  /** Reports message and path through log.clientError; resolves to the correlation id (§8). */
  readonly report: (message: string, path: string) => Promise<string>;
  readonly path: () => string;
  readonly children: ReactNode;
}

interface State {
  readonly error?: Error;
  readonly correlationId?: string;
}

/**
 * §8 "Unhandled render error": the page below is replaced by the error page, the error's message and
 * path go to the server, and the returned correlation id replaces the spinner. Try again clears the
 * error and renders the page afresh (§4 Other).
 */
export class ShellErrorBoundary extends Component<Props, State> {
  override state: State = {};
  private attempt = 0;

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo): void {
    const attempt = ++this.attempt;
    void this.props
      .report(error.message || error.name || 'render error', this.props.path())
      .then(
        (correlationId) => correlationId,
        // The report itself failed (offline, rate-limited): an id the collector can still quote.
        () => `local-${Date.now().toString(36)}`,
      )
      .then((correlationId) => {
        if (attempt === this.attempt && this.state.error) this.setState({ correlationId });
      });
  }

  private readonly retry = () => {
    this.attempt++;
    this.setState({ error: undefined, correlationId: undefined });
  };

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <ErrorView
        t={this.props.t}
        supportUrl={this.props.supportUrl}
        {...(this.state.correlationId ? { correlationId: this.state.correlationId } : {})}
        retry={{ onRetry: this.retry }}
      />
    );
  }
}
