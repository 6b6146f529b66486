/**
 * A full page load to `path`. Used where the spec says "go to '/'" after the session ends (logout, any 401):
 * reloading drops every cached query and component state of the previous user at once.
 */
export function hardNavigate(path: string): void {
  window.location.assign(path);
}
