import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { Route, Switch } from "wouter"
import { KeysPage } from "./pages/Keys.tsx"
import { LinksPage } from "./pages/Links.tsx"
import "./styles.css"

function App() {
  return (
    <Switch>
      <Route path="/user/keys" component={KeysPage} />
      <Route path="/p/:projectId/links">{(params) => <LinksPage projectId={params.projectId} />}</Route>
      <Route>
        <main>
          <h1>Board</h1>
        </main>
      </Route>
    </Switch>
  )
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>
)
