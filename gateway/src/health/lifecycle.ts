/** The process's readiness: false from SIGTERM on, so the load balancer stops sending new work. */
export class Lifecycle {
  private draining = false;

  get isDraining(): boolean {
    return this.draining;
  }

  markDraining(): void {
    this.draining = true;
  }
}
