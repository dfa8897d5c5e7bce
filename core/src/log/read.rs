//! Reading a log one item at a time, whatever its encoding and wherever its bytes are: in memory
//! (`&[u8]`) or behind any reader (a file, a pipe). The header is read first; then each record is
//! read, checked, decoded and chained when asked for, and nothing of it is kept: the memory a
//! reader holds is one item (a line or a frame, at most [`MAX_ITEM_BYTES`] and a little), however
//! long the log.

use super::{binary, jsonl, Action, Chain, Encoding, Header, Record, MAGIC, MAX_ITEM_BYTES};
use crate::digest::Digest;
use crate::error::{ErrorCode, Fault};
use std::io::{self, BufRead, Read};

/// Why reading a log stopped: the log is faulty (a [`Fault`], located), or the reader failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{}", .0.describe())]
    Fault(Fault),
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl From<Fault> for ReadError {
    fn from(f: Fault) -> ReadError {
        ReadError::Fault(f)
    }
}

impl ReadError {
    /// The fault, for a reader that cannot fail (bytes in memory).
    pub(crate) fn into_fault(self) -> Fault {
        match self {
            ReadError::Fault(f) => f,
            ReadError::Io(e) => Fault::new(ErrorCode::BadEncoding, format!("the log could not be read: {e}")),
        }
    }
}

/// What a reader reads from: the bytes taken to tell the encoding, then the rest.
type Sniffed<R> = io::Chain<io::Take<io::Cursor<[u8; 8]>>, R>;

/// Bytes from a reader, counted; an item (a line or a frame) is read into `buf`, the only
/// buffer, which holds one item at a time.
struct Input<R> {
    r: R,
    /// Bytes consumed so far.
    pos: u64,
    buf: Vec<u8>,
}

impl<R: BufRead> Input<R> {
    fn byte(&mut self) -> io::Result<Option<u8>> {
        let Some(&b) = self.r.fill_buf()?.first() else { return Ok(None) };
        self.r.consume(1);
        self.pos += 1;
        Ok(Some(b))
    }

    /// Reads `n` bytes into `buf` (fewer at the end of the input); answers how many.
    fn take(&mut self, n: usize) -> io::Result<usize> {
        self.buf.clear();
        while self.buf.len() < n {
            let chunk = self.r.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let k = chunk.len().min(n - self.buf.len());
            self.buf.extend_from_slice(&chunk[..k]);
            self.r.consume(k);
            self.pos += k as u64;
        }
        Ok(self.buf.len())
    }

    /// Reads the next line (up to `\n`, which is consumed and not kept) into `buf`, keeping at
    /// most `keep` bytes of it; answers its whole length, or `None` at the end of the input.
    fn line(&mut self, keep: usize) -> io::Result<Option<usize>> {
        self.buf.clear();
        let mut len = 0;
        let mut any = false;
        loop {
            let chunk = self.r.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (part, ends) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (&chunk[..i], true),
                None => (chunk, false),
            };
            len += part.len();
            let room = keep.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&part[..part.len().min(room)]);
            let used = part.len() + usize::from(ends);
            self.r.consume(used);
            self.pos += used as u64;
            if ends {
                break;
            }
        }
        Ok(any.then_some(len))
    }

    /// Reads on to the end of the input; whether everything left is blank (only whitespace).
    /// Used for a message only (is a line that ends too early the last of the file?).
    fn rest_is_blank(&mut self) -> io::Result<bool> {
        loop {
            let chunk = self.r.fill_buf()?;
            if chunk.is_empty() {
                return Ok(true);
            }
            if !chunk.iter().all(u8::is_ascii_whitespace) {
                return Ok(false);
            }
            let n = chunk.len();
            self.r.consume(n);
        }
    }
}

/// A log being read: its header (read and checked), then its records one at a time
/// ([`LogReader::next_record`]), each chained as it is read, so that once the last is read the
/// log's digest is known ([`LogReader::digest`]: the same as [`super::Log::digest`]).
///
/// A record that cannot be read ends the reading: every later call answers `Ok(None)`.
pub struct LogReader<R> {
    input: Input<Sniffed<R>>,
    header: Header,
    encoding: Encoding,
    chain: Chain,
    /// Records read so far.
    index: usize,
    /// JSON Lines: the number of lines read so far (the line of the last record read).
    line: usize,
    /// JSON Lines: the offset of the last line read.
    line_start: u64,
    /// The end was reached, or a record could not be read.
    done: bool,
}

impl<R> std::fmt::Debug for LogReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogReader")
            .field("encoding", &self.encoding)
            .field("game", &self.header.game)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> LogReader<R> {
    /// Reads the header, whatever the encoding (the binary magic tells).
    pub fn open(r: R) -> Result<LogReader<R>, ReadError> {
        LogReader::open_as(r, false)
    }

    /// Reads the header, in JSON Lines when `force_jsonl` says so whatever the first bytes are.
    pub(super) fn open_as(mut r: R, force_jsonl: bool) -> Result<LogReader<R>, ReadError> {
        let mut head = [0u8; 8];
        let mut n = 0;
        while n < head.len() {
            match r.read(&mut head[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        let binary = !force_jsonl && head[..n] == MAGIC[..];
        // The bytes taken to tell are the start of the first line of a JSON Lines log.
        let kept = if binary { 0 } else { n as u64 };
        let input = Input { r: io::Cursor::new(head).take(kept).chain(r), pos: n as u64 - kept, buf: Vec::new() };
        let placeholder = binary::empty_header();
        let mut reader = LogReader {
            input,
            header: placeholder,
            encoding: if binary { Encoding::Binary } else { Encoding::JsonLines },
            chain: Chain::at(Digest([0; 32])),
            index: 0,
            line: 0,
            line_start: 0,
            done: false,
        };
        if binary {
            reader.binary_header()?;
        } else {
            reader.jsonl_header()?;
        }
        Ok(reader)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn into_header(self) -> Header {
        self.header
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// How many records were read.
    pub fn records_read(&self) -> usize {
        self.index
    }

    /// JSON Lines: the line of the last record read (1-based); `None` for binary.
    pub fn line(&self) -> Option<usize> {
        (self.encoding == Encoding::JsonLines && self.index > 0).then_some(self.line)
    }

    /// The last link of the chain: after the last record, the log's digest.
    pub fn digest(&self) -> Digest {
        self.chain.digest()
    }

    /// The next record, read as `A`, checked and chained; `Ok(None)` at the end of the log. An
    /// error names the record (its index) and, in JSON Lines, its line.
    pub fn next_record<A: Action>(&mut self) -> Result<Option<Record<A>>, ReadError> {
        if self.done {
            return Ok(None);
        }
        let read = match self.encoding {
            Encoding::Binary => self.binary_record(),
            Encoding::JsonLines => self.jsonl_record(),
        };
        match read {
            Ok(Some(r)) => {
                self.index += 1;
                Ok(Some(r))
            }
            other => {
                self.done = true;
                other
            }
        }
    }

    /// JSON Lines: the next line that is not blank, with its number, in `buf` (as read, less a
    /// `\r` before the `\n`); its whole length (it may be longer than what `buf` keeps).
    fn next_line(&mut self) -> Result<Option<usize>, ReadError> {
        loop {
            self.line_start = self.input.pos;
            // One byte more than the limit, and one for a `\r`, tell an overlong line.
            let Some(mut len) = self.input.line(MAX_ITEM_BYTES + 2)? else { return Ok(None) };
            self.line += 1;
            if self.input.buf.last() == Some(&b'\r') && len == self.input.buf.len() {
                self.input.buf.pop();
                len -= 1;
            }
            if len > MAX_ITEM_BYTES || !self.input.buf.trim_ascii().is_empty() {
                return Ok(Some(len));
            }
        }
    }

    /// The line in `buf` as text, or the fault of its first byte that is not UTF-8: the header's
    /// (`record` None: then the file is no log at all) or record `record`'s.
    fn line_text(&self, record: Option<usize>) -> Result<&str, Fault> {
        std::str::from_utf8(&self.input.buf).map_err(|e| {
            let offset = self.line_start + e.valid_up_to() as u64;
            let message = match record {
                None => format!(
                    "not a Paifu log: neither the binary magic nor UTF-8 text (invalid byte at offset {offset})"
                ),
                Some(index) => format!("record {index} is not UTF-8 text (invalid byte at offset {offset})"),
            };
            Fault::new(ErrorCode::BadEncoding, message).at_line(self.line)
        })
    }

    fn jsonl_header(&mut self) -> Result<(), ReadError> {
        let Some(len) = self.next_line()? else {
            return Err(Fault::new(ErrorCode::Truncated, "the file is empty: a log starts with a header line")
                .at_line(1)
                .into());
        };
        let line_no = self.line;
        if len > MAX_ITEM_BYTES {
            return Err(Fault::new(ErrorCode::BadEncoding, "the header line is longer than 1 MiB")
                .at_line(line_no)
                .into());
        }
        let parsed = jsonl::parse_header(line_no, self.line_text(None)?);
        let header = match parsed {
            Ok(h) => h,
            Err(e) => {
                let last = e.needs_last() && self.input.rest_is_blank()?;
                return Err(e.fault(last).into());
            }
        };
        self.chain = Chain::new(&header);
        self.header = header;
        Ok(())
    }

    fn jsonl_record<A: Action>(&mut self) -> Result<Option<Record<A>>, ReadError> {
        let index = self.index;
        let Some(len) = self.next_line()? else { return Ok(None) };
        let line_no = self.line;
        if len > MAX_ITEM_BYTES {
            return Err(Fault::new(ErrorCode::BadEncoding, "a record line is longer than 1 MiB")
                .at_line(line_no)
                .at_index(index)
                .into());
        }
        // A canonical line is ASCII: its UTF-8 is checked only when serde_json reads it.
        let parsed = match jsonl::canonical_record(&self.input.buf) {
            Some(fields) => jsonl::record_of_fields::<A>(index, line_no, fields),
            None => {
                let text = self.line_text(Some(index)).map_err(|f| f.at_index(index))?;
                jsonl::parse_by_serde::<A>(index, line_no, text)
            }
        };
        let record = match parsed {
            Ok(r) => r,
            Err(e) => {
                let last = e.needs_last() && self.input.rest_is_blank()?;
                return Err(e.fault(last).into());
            }
        };
        self.chain.push(&record);
        Ok(Some(record))
    }

    /// Binary: the next frame into `buf`; `Ok(false)` at a clean end. `what` names the frame
    /// for errors (written only for one).
    fn frame(&mut self, what: &dyn Fn() -> String) -> Result<bool, ReadError> {
        let start = self.input.pos;
        let mut len: u64 = 0;
        let mut shift = 0;
        let mut first = true;
        loop {
            let Some(b) = self.input.byte()? else {
                if first {
                    return Ok(false);
                }
                return Err(Fault::new(
                    ErrorCode::Truncated,
                    format!("the file ends inside the length of {} (byte {start})", what()),
                )
                .into());
            };
            if shift > 28 {
                return Err(Fault::new(
                    ErrorCode::BadEncoding,
                    format!("the length of {} at byte {start} is not a valid varint", what()),
                )
                .into());
            }
            len |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                // A last byte of 0 after others adds nothing: an overlong length, which would
                // give the log a second binary form.
                if b == 0 && !first {
                    return Err(Fault::new(
                        ErrorCode::BadEncoding,
                        format!("the length of {} at byte {start} is not in canonical form (overlong)", what()),
                    )
                    .into());
                }
                break;
            }
            first = false;
        }
        if len > MAX_ITEM_BYTES as u64 {
            return Err(Fault::new(
                ErrorCode::BadEncoding,
                format!("{} at byte {start} claims {len} bytes, more than the 1 MiB limit", what()),
            )
            .into());
        }
        let present = self.input.take(len as usize)?;
        if (present as u64) < len {
            return Err(Fault::new(
                ErrorCode::Truncated,
                format!("the file ends inside {}: {len} bytes announced at byte {start}, {present} present", what()),
            )
            .into());
        }
        Ok(true)
    }

    fn binary_header(&mut self) -> Result<(), ReadError> {
        if !self.frame(&|| "the header".to_owned())? {
            return Err(Fault::new(ErrorCode::Truncated, "the file ends after the magic, before the header").into());
        }
        let h = &self.input.buf;
        let header = binary::header_of_frame(h)?;
        self.chain = Chain::from_frame(&header, h);
        self.header = header;
        Ok(())
    }

    fn binary_record<A: Action>(&mut self) -> Result<Option<Record<A>>, ReadError> {
        let index = self.index;
        // The record's name is written out only for an error.
        let what = || format!("record {index}");
        if !self.frame(&what).map_err(|e| at_index(e, index))? {
            return Ok(None);
        }
        let f = &self.input.buf;
        let r = binary::record_of_frame::<A>(f, &what).map_err(|e| e.at_index(index))?;
        self.chain.push_bytes(f);
        Ok(Some(r))
    }
}

fn at_index(e: ReadError, index: usize) -> ReadError {
    match e {
        ReadError::Fault(f) => ReadError::Fault(f.at_index(index)),
        io => io,
    }
}

/// Reads the header line of a JSON Lines log only.
pub fn read_jsonl_header(text: &str) -> Result<Header, Fault> {
    LogReader::open_as(text.as_bytes(), true).map(LogReader::into_header).map_err(ReadError::into_fault)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{encode, random_log, Encoding};
    use crate::riichi::{Action, Riichi};

    /// A reader that hands out at most `chunk` bytes a call and counts what it handed out.
    struct Trickle<'a> {
        bytes: &'a [u8],
        chunk: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.chunk.min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Read in small pieces through a small buffer, a log gives the records and the digest it
    /// gives from memory, and the reader never holds more than one item.
    #[test]
    fn a_log_read_in_pieces_is_the_log_read_whole() {
        let log = random_log::<Riichi>("standard", 4, "pieces");
        for enc in [Encoding::Binary, Encoding::JsonLines] {
            let bytes = encode(&log, enc);
            for chunk in [1, 3, 7, 64] {
                let r = io::BufReader::with_capacity(16, Trickle { bytes: &bytes, chunk });
                let mut reader = LogReader::open(r).unwrap();
                assert_eq!(reader.header(), &log.header);
                let mut records = Vec::new();
                let mut most = 0;
                while let Some(rec) = reader.next_record::<Action>().unwrap() {
                    records.push(rec);
                    most = most.max(reader.input.buf.capacity());
                }
                assert_eq!(records, log.records, "{enc:?} {chunk}");
                assert_eq!(reader.digest(), log.digest(), "{enc:?} {chunk}");
                // One line or frame at a time, the header's the longest: never the whole log.
                let item = crate::log::header_line(&log.header).len();
                assert!(most <= 2 * item && most * 8 < bytes.len(), "{enc:?} {chunk}: {most} of {} bytes", bytes.len());
            }
        }
    }

    #[test]
    fn a_short_log_is_told_from_the_magic() {
        // Shorter than the magic: JSON Lines, read whole.
        let r = LogReader::open(&b"{}"[..]).unwrap_err();
        let ReadError::Fault(f) = r else { panic!("{r}") };
        assert!(f.message.contains("\"paifu\""), "{}", f.message);
        let r = LogReader::open(&b"PAIFULO"[..]).unwrap_err();
        let ReadError::Fault(f) = r else { panic!("{r}") };
        assert_eq!(f.code, ErrorCode::BadEncoding, "{}", f.describe());
    }

    /// A byte that is not UTF-8 in a record's line names that record; in the header's, the file
    /// is no log.
    #[test]
    fn a_line_that_is_not_utf8_names_its_record_or_says_the_file_is_no_log() {
        let log = random_log::<Riichi>("standard", 4, "utf8");
        let text = encode(&log, Encoding::JsonLines);
        let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
        // Record 2's line (the header is line 1) with a stray byte in its action.
        let mut bytes = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            bytes.extend_from_slice(l);
            if i == 2 {
                bytes.truncate(bytes.len() - 3);
                bytes.extend_from_slice(b"\xff\"}\n");
            }
        }
        let mut reader = LogReader::open(&bytes[..]).unwrap();
        let fault = loop {
            match reader.next_record::<Action>() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("the stray byte was read"),
                Err(ReadError::Fault(f)) => break f,
                Err(e) => panic!("{e}"),
            }
        };
        assert_eq!(fault.index, Some(1), "{}", fault.describe());
        assert!(fault.message.starts_with("record 1 is not UTF-8 text"), "{}", fault.describe());
        let mut header = b"{\"paifu\":1,\"game\":\"\xff\"}\n".to_vec();
        header.extend_from_slice(&text[lines[0].len()..]);
        let ReadError::Fault(f) = LogReader::open(&header[..]).unwrap_err() else { panic!() };
        assert!(f.message.starts_with("not a Paifu log"), "{}", f.describe());
    }

    #[test]
    fn a_failing_reader_is_an_io_error_not_a_fault() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = LogReader::open(io::BufReader::new(Broken)).unwrap_err();
        assert!(matches!(&e, ReadError::Io(io) if io.to_string() == "disk on fire"), "{e}");
    }
}
