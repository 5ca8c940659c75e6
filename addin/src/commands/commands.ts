/// <reference types="office-js" />
/**
 * Ribbon commands. The ribbon's one button opens the task pane (a ShowTaskpane action in the
 * manifest, no code needed); this file is the shared runtime's place for ExecuteFunction
 * commands, kept so the manifest's FunctionFile has its script, as in Microsoft's template.
 */
function showTaskpane(event?: Office.AddinCommands.Event): void {
  void Office.addin
    ?.showAsTaskpane()
    .catch(() => undefined)
    .finally(() => event?.completed());
}

Office.onReady(() => {
  Office.actions?.associate('showTaskpane', showTaskpane);
});
