/** Saves `blob` as a file named `fileName` through a temporary object URL and link. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Saves `content` as a text file of the given type. */
export function downloadTextFile(fileName: string, content: string, type: string): void {
  downloadBlob(fileName, new Blob([content], { type }));
}
