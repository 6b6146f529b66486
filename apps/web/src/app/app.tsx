/** The app shell. The screens of product-spec.md section 2 arrive with the web app issues. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>AI-Powered Flashcard Application</h1>
      <p>Turn your notes into flashcards and learn them with spaced repetition.</p>
    </main>
  );
}
