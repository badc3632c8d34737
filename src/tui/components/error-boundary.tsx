/** The last resort: a screen that throws while rendering shows the error instead of ending the TUI. */
import { Component, type ReactNode } from 'react'
import { Text } from './text.js'

export class ErrorBoundary extends Component<
  { children: ReactNode; color: boolean },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null }

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override render(): ReactNode {
    if (this.state.error)
      return (
        <Text color={this.props.color ? 'red' : undefined}>
          {`This screen failed: ${this.state.error.message}. Switch screens to try again.`}
        </Text>
      )
    return this.props.children
  }
}
