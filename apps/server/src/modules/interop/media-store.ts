// The database's chunks moved to adapters/media (the media store); imports and shares still write them here.
export {
  copyMediaChunks,
  insertMediaChunks,
  MEDIA_CHUNK_BYTES,
  mediaStream,
} from '../../adapters/media/database-chunks';
