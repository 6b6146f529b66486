/**
 * The texts of the image occlusion editor, apart from messages.ts because that module is part of /login's JavaScript
 * and the editor is a lazy chunk of signed-in pages. Fill placeholders with `fillMessage` from messages.ts.
 */
export const occlusionMessages = {
  formLabel: 'Image occlusion note',
  imageLabel: 'Image to occlude (JPG, PNG, WebP or GIF)',
  uploading: 'Uploading the image...',
  suggesting: 'Finding the labels to cover...',
  suggested: '{count} masks suggested, one per label found. Move, resize, add or group them.',
  noneSuggested: 'No labels were found in this image: draw the masks by hand.',
  suggestRateLimited: 'Mask suggestions are used up for this hour: draw the masks by hand.',
  suggestFailed: 'Masks could not be suggested for this image: draw them by hand.',
  uploadFailed: 'The image could not be uploaded. Please try again.',
  chooseImage: 'Choose an image first.',
  editorLabel: 'Masks over the image',
  editorHint:
    'Drag on the image to draw a mask; drag a mask to move it, its corners to resize it. Keyboard: Tab to a mask, Space selects it, arrow keys move, Shift+arrows resize, Delete removes, G groups the selection, U ungroups.',
  maskLabel: 'Mask {n}, card {group}',
  newShapeLegend: 'New masks',
  shapeRect: 'Rectangle',
  shapeEllipse: 'Ellipse',
  addMask: 'Add mask',
  groupMasks: 'Group (G)',
  ungroupMasks: 'Ungroup (U)',
  deleteMasks: 'Delete (Del)',
  modeLegend: 'Cards',
  modeHideOne: 'Hide one, guess one',
  modeHideAll: 'Hide all, guess one',
  cardCount: '{masks} masks, {cards} cards',
  announceAdded: 'Mask {n} added, card {group}.',
  announceSelected: 'Masks selected: {count}.',
  announceMoved: 'Moved.',
  announceResized: 'Resized.',
  announceDeleted: 'Masks deleted: {count}.',
  announceGrouped: '{count} masks grouped into card {group}.',
  announceUngrouped: '{count} masks ungrouped: one card each.',
  saveNote: 'Save occlusion note',
};
