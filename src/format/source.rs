//! Program source (JavaScript, TypeScript, Python) read as the JSON reader reads a
//! document: [`Literals`] turns each array or object literal that is assigned,
//! returned, exported or passed to a call (`const p = [...]`, `PUZZLES = {...}`,
//! `export default [...]`, `return [...]`, `f([...])`) into JSON as it streams by, and
//! the program text around them into nothing but its line breaks, so the JSON reader's
//! line numbers are the file's.
//!
//! Inside a literal: comments go; `'...'`, `` `...` `` and `"""..."""` strings become
//! JSON strings; keys without quotes get them; a comma before a closing bracket goes;
//! `None`, `undefined` and `NaN` become `null`, `True`/`False` `true`/`false`, tuples
//! lists, and any other name a string (a reference to a variable is passed over, never
//! read as a board). What is still not JSON is the JSON reader's error, at its line.

use std::io::{self, BufRead, Read};

/// Where the lexer is within a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lex {
    Normal,
    /// `n` quotes in a row at the start of a string: one opens a string, two are an
    /// empty one, three open a long (Python) string.
    Quotes {
        quote: u8,
        n: u8,
    },
    String(Quoted),
    /// A `/` that may start a comment.
    Slash,
    /// A `#` in a file that reads as JavaScript: a private name (`#hard`) or a comment.
    Hash,
    LineComment,
    BlockComment {
        star: bool,
    },
    /// A name, collected in `word`.
    Word,
    Number {
        exponent: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Quoted {
    quote: u8,
    long: bool,
    escaped: bool,
    /// Quotes in a row seen in a long string (three close it).
    closing: u8,
}

/// A `Read` of the JSON in the program source it wraps; memory is bounded by its
/// input's buffer.
pub(crate) struct Literals<R> {
    input: R,
    lexer: Lexer,
    eof: bool,
}

struct Lexer {
    out: Vec<u8>,
    /// `out[sent..]` is not handed out yet.
    sent: usize,
    lex: Lex,
    /// Open brackets of the literal being read; 0 in program text.
    depth: usize,
    /// What closes each open bracket, up to [`MAX_OPEN`] deep: `]` for a list (a
    /// C-family `{ 4, 0, ... }` included), `}` for an object.
    closers: Vec<u8>,
    /// A `{` not yet known to open an object or a list (C, Java and Go write lists in
    /// braces): its first member decides (a key followed by `:` makes an object).
    /// Output from it on is held back until then.
    brace: Option<Brace>,
    /// In program text: the last byte that is not white space (`a` for a name, `0` for
    /// a number) and the one before it, and the last name: an assignment, `return`
    /// and the like decide whether a bracket opens a literal.
    last: u8,
    before_last: u8,
    last_word: Vec<u8>,
    word: Vec<u8>,
    /// In a literal: a comma not yet written (one before a closing bracket is dropped)
    /// and a name waiting for what follows (a `:` makes it a key).
    comma: bool,
    name: Option<Vec<u8>>,
    /// Line breaks inside a string, written after it so that lines still count, and
    /// those not yet written (paid out by `read` in batches).
    breaks: usize,
    owed: usize,
    /// A string of program text is being passed on as `{"": "..."}` (the JSON reader
    /// reads it if it looks like a board: `HARD = "..."`, `solve("...")`), and how
    /// much of it was.
    code_string: bool,
    code_written: usize,
    /// A string of program text ended, and may go on in the next (`"005029000" +`
    /// on one line, `"374000020"` on the next: Java, JavaScript, Python's adjacent
    /// strings): its `"}` waits; `plus` when the `+` was seen.
    joinable: bool,
    plus: bool,
    /// The byte before this one, raw (`#` starts a comment only after white space).
    prev: u8,
    /// A line break is a bare CR, not yet known not to start a CRLF.
    cr: bool,
    /// The file reads as JavaScript (a `//` comment or `const`, `let`, `var`,
    /// `function`, `export` seen): `#name` is a private name there, not a comment.
    javascript: bool,
    /// The last thing in program text was a literal's closing bracket: another may
    /// follow at once (JSON Lines, documents one after another).
    after_literal: bool,
}

#[derive(Clone, Copy, Debug)]
struct Brace {
    /// Where it stands in the output.
    at: usize,
    /// Its index among the open brackets.
    level: usize,
    /// Its first member began with a name or a string: what follows decides.
    first: bool,
}

/// Brackets deeper than this are closed as they are written (the JSON reader reads
/// 16 levels).
const MAX_OPEN: usize = 64;

/// Output held back for an undecided brace, at most: past it, the brace is an object.
const MAX_HELD: usize = 1 << 20;

/// Line breaks written at a time (those owed after a string that spans lines).
const BATCH: usize = 1 << 16;

/// A string in program text is passed on up to this many bytes (no board is longer).
const LONGEST_CODE_STRING: usize = 4096;

/// Names are cut at this length: no keyword or key this reader acts on is longer.
const LONGEST_NAME: usize = 64;

/// Whether the program text in `sample` opens a literal this reader reads: the
/// reader's own rules decide whether detection tries it, and what `--format json`
/// does with program text.
pub(crate) fn opens_a_literal(sample: &[u8]) -> bool {
    let mut lexer = Lexer::new();
    sample.iter().any(|&b| {
        lexer.byte(b);
        // Until a literal opens, the output is program text's: nothing to keep.
        lexer.out.clear();
        lexer.depth > 0
    })
}

impl<R: BufRead> Literals<R> {
    pub(crate) fn new(input: R) -> Literals<R> {
        Literals {
            input,
            lexer: Lexer::new(),
            eof: false,
        }
    }
}

impl Lexer {
    fn new() -> Lexer {
        Lexer {
            out: Vec::new(),
            sent: 0,
            lex: Lex::Normal,
            depth: 0,
            closers: Vec::new(),
            brace: None,
            last: b'\n',
            before_last: b'\n',
            last_word: Vec::new(),
            word: Vec::new(),
            comma: false,
            name: None,
            breaks: 0,
            owed: 0,
            code_string: false,
            code_written: 0,
            joinable: false,
            plus: false,
            prev: b'\n',
            cr: false,
            javascript: false,
            after_literal: false,
        }
    }
}

impl<R: BufRead> Read for Literals<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let lexer = &mut self.lexer;
        while lexer.sent == lexer.ready() {
            if lexer.sent == lexer.out.len() {
                lexer.out.clear();
                lexer.sent = 0;
            }
            // Line breaks owed after a long string go out a bounded batch at a time.
            if lexer.owed > 0 {
                let n = lexer.owed.min(BATCH);
                lexer.out.resize(lexer.out.len() + n, b'\n');
                lexer.owed -= n;
                continue;
            }
            if self.eof {
                return Ok(0);
            }
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                self.eof = true;
                lexer.finish();
                continue;
            }
            let mut used = 0;
            for &b in chunk {
                if lexer.owed > 0 {
                    break;
                }
                lexer.byte(b);
                used += 1;
            }
            self.input.consume(used);
        }
        let pending = &lexer.out[lexer.sent..lexer.ready()];
        let n = pending.len().min(buf.len());
        buf[..n].copy_from_slice(&pending[..n]);
        lexer.sent += n;
        Ok(n)
    }
}

/// A function that makes a list of its arguments: Kotlin's `arrayOf`, `listOf`,
/// `intArrayOf`..., Scala's `Array`, `List`.
fn constructs_list(name: &[u8]) -> bool {
    name.ends_with(b"Of") || matches!(name, b"Array" | b"List" | b"Vector")
}

fn starts_name(b: u8) -> bool {
    b.is_ascii_alphabetic() || matches!(b, b'_' | b'$')
}

impl Lexer {
    fn in_literal(&self) -> bool {
        self.depth > 0
    }

    /// The end of the output that can be handed out.
    fn ready(&self) -> usize {
        self.brace.map_or(self.out.len(), |b| b.at)
    }

    /// Decides the undecided brace, if any: a list or an object.
    fn decide(&mut self, list: bool) {
        if let Some(b) = self.brace.take() {
            if list {
                self.out[b.at] = b'[';
                if let Some(c) = self.closers.get_mut(b.level) {
                    *c = b']';
                }
            }
        }
    }

    fn open_bracket(&mut self, b: u8) {
        // A bracket as the first member of an undecided brace: a list of lists.
        self.decide(true);
        if b == b'{' {
            self.brace = Some(Brace {
                at: self.out.len(),
                level: self.depth,
                first: false,
            });
        }
        let (open, close) = match b {
            b'{' => (b'{', b'}'),
            _ => (b'[', b']'),
        };
        self.out.push(open);
        if self.depth < MAX_OPEN {
            self.closers.push(close);
        }
        self.depth += 1;
    }

    fn close_bracket(&mut self, b: u8) {
        // `{}`: an empty object.
        self.decide(false);
        self.depth -= 1;
        let close = match self.depth < self.closers.len() {
            true => self.closers.pop().expect("one a level"),
            false if b == b')' => b']',
            false => b,
        };
        self.out.push(close);
    }

    /// A name or a string begins a member: the first of an undecided brace waits for
    /// what follows it.
    fn member_starts(&mut self) {
        if let Some(b) = &mut self.brace {
            b.first = true;
        }
    }

    fn byte(&mut self, b: u8) {
        // CR-only and CRLF line ends read as LF.
        if std::mem::take(&mut self.cr) && b != b'\n' {
            self.token_byte(b'\n');
        }
        if b == b'\r' {
            self.cr = true;
            return;
        }
        self.token_byte(b);
        self.prev = b;
    }

    fn token_byte(&mut self, b: u8) {
        if self.joinable && self.lex == Lex::Normal {
            match b {
                b' ' | b'\t' => return,
                b'\n' => return self.breaks += 1,
                b'+' if !self.plus => return self.plus = true,
                b'"' | b'\'' | b'`' => {
                    // The string goes on: no new wrapper.
                    (self.joinable, self.plus) = (false, false);
                    self.code_string = true;
                    return self.lex = Lex::Quotes { quote: b, n: 1 };
                }
                _ => {
                    self.end_code_string();
                    if std::mem::take(&mut self.plus) {
                        self.code_mark(b'+');
                    }
                }
            }
        }
        if self
            .brace
            .is_some_and(|br| self.out.len() - br.at > MAX_HELD)
        {
            self.decide(false);
        }
        // Each arm either takes the byte or ends its token and hands the byte on.
        loop {
            match self.lex {
                Lex::Normal if self.joinable => return self.token_byte(b),
                Lex::Normal => return self.normal(b),
                Lex::Quotes { quote, n } if b == quote => {
                    self.lex = match n + 1 {
                        3 => Lex::String(Quoted {
                            quote,
                            long: true,
                            escaped: false,
                            closing: 0,
                        }),
                        n => Lex::Quotes { quote, n },
                    };
                    return;
                }
                Lex::Quotes { quote, n } => {
                    self.lex = Lex::String(Quoted {
                        quote,
                        long: false,
                        escaped: false,
                        closing: 0,
                    });
                    if n == 2 {
                        self.close_string();
                    }
                }
                Lex::String(q) => return self.string_byte(q, b),
                // A private name goes on as code; else a comment, which `b` may end.
                Lex::Hash => {
                    self.lex = match starts_name(b) {
                        true => Lex::Normal,
                        false => Lex::LineComment,
                    };
                }
                Lex::Slash => match b {
                    b'/' => {
                        self.javascript = true;
                        return self.lex = Lex::LineComment;
                    }
                    b'*' => return self.lex = Lex::BlockComment { star: false },
                    _ => {
                        self.lex = Lex::Normal;
                        if self.in_literal() {
                            self.settle(b'/');
                            self.out.push(b'/');
                        } else {
                            self.code_mark(b'/');
                        }
                    }
                },
                Lex::LineComment if b == b'\n' => self.lex = Lex::Normal,
                Lex::LineComment => return,
                Lex::BlockComment { star } => {
                    self.lex = match (star, b) {
                        (true, b'/') => Lex::Normal,
                        _ => Lex::BlockComment { star: b == b'*' },
                    };
                    if b == b'\n' {
                        self.out.push(b'\n');
                    }
                    return;
                }
                Lex::Word if starts_name(b) || b.is_ascii_digit() => {
                    if self.word.len() < LONGEST_NAME {
                        self.word.push(b);
                    }
                    return;
                }
                Lex::Word => {
                    self.lex = Lex::Normal;
                    let word = std::mem::take(&mut self.word);
                    if self.in_literal() {
                        self.name = Some(word);
                    } else {
                        if matches!(
                            &word[..],
                            b"const" | b"let" | b"var" | b"function" | b"export"
                        ) {
                            self.javascript = true;
                        }
                        self.last_word = word;
                        self.code_mark(b'a');
                    }
                }
                Lex::Number { exponent } => {
                    let sign = exponent && matches!(b, b'+' | b'-');
                    if !(b.is_ascii_alphanumeric() || b == b'.' || sign) {
                        self.lex = Lex::Normal;
                        continue;
                    }
                    self.lex = Lex::Number {
                        exponent: matches!(b, b'e' | b'E'),
                    };
                    if self.in_literal() {
                        self.out.push(b);
                    }
                    return;
                }
            }
        }
    }

    /// Notes a byte of program text that is not white space.
    fn code_mark(&mut self, b: u8) {
        self.before_last = self.last;
        self.last = b;
        self.after_literal = false;
    }

    /// Whether a bracket in program text opens a literal to read: after an assignment
    /// (`=`, not `==`, `<=`, `>=`, `!=`), after `return`, `default` or `yield`, a list
    /// passed to a call (`f([...])`) or a macro (`vec![...]`), or braces after an
    /// array type (`new int[][] {...}`, Go's `[][]byte{...}`).
    fn opens_literal(&self, b: u8) -> bool {
        if self.after_literal {
            return true;
        }
        match self.last {
            b'=' => !matches!(self.before_last, b'=' | b'!' | b'<' | b'>'),
            b'(' | b'!' => b == b'[',
            // The first thing in the file: a document of one literal (JSON5, YAML's
            // flow style).
            b'\n' => true,
            b']' => b == b'{',
            b'a' if b == b'{' && self.before_last == b']' => {
                !matches!(&self.last_word[..], b"struct" | b"interface")
            }
            b'a' => matches!(&self.last_word[..], b"return" | b"default" | b"yield"),
            _ => false,
        }
    }

    /// A byte outside any token.
    fn normal(&mut self, b: u8) {
        match b {
            b'\n' | b' ' | b'\t' | b'\r' => {
                if b == b'\n' || self.in_literal() {
                    self.out.push(b);
                }
                return;
            }
            b'/' => return self.lex = Lex::Slash,
            // A comment in Python, shell, YAML; not in `r#"..."#` or `this.#x`.
            b'#' if matches!(self.prev, b' ' | b'\t' | b'\n' | b',') => {
                return self.lex = match self.javascript {
                    true => Lex::Hash,
                    false => Lex::LineComment,
                };
            }
            _ => {}
        }
        if !self.in_literal() {
            match b {
                // A Rust lifetime (`&'static`, `<'a>`) opens no string.
                b'\'' if matches!(self.last, b'&' | b'<') && self.prev == self.last => {}
                b'"' | b'\'' | b'`' => {
                    self.out.extend_from_slice(b"{\"\": \"");
                    self.code_string = true;
                    self.code_written = 0;
                    self.lex = Lex::Quotes { quote: b, n: 1 };
                }
                b'[' | b'{' if self.opens_literal(b) => self.open_bracket(b),
                // `val board = arrayOf(arrayOf(null, 3, ...), ...)` (Kotlin, Scala).
                b'(' if self.last == b'a'
                    && self.before_last == b'='
                    && constructs_list(&self.last_word) =>
                {
                    self.open_bracket(b)
                }
                _ if starts_name(b) => {
                    self.word.clear();
                    self.word.push(b);
                    return self.lex = Lex::Word;
                }
                b'0'..=b'9' => {
                    self.lex = Lex::Number { exponent: false };
                    return self.code_mark(b'0');
                }
                _ => {}
            }
            return self.code_mark(b);
        }
        if b == b',' {
            self.settle(b);
            self.comma = true;
            return;
        }
        self.settle(b);
        match b {
            b'"' | b'\'' | b'`' => {
                self.member_starts();
                self.out.push(b'"');
                self.lex = Lex::Quotes { quote: b, n: 1 };
            }
            b'[' | b'{' | b'(' => self.open_bracket(b),
            b']' | b'}' | b')' => {
                self.close_bracket(b);
                if self.depth == 0 {
                    self.code_mark(b);
                    self.after_literal = true;
                }
            }
            b'0'..=b'9' | b'-' | b'+' | b'.' => {
                self.decide(true);
                self.out.push(b);
                self.lex = Lex::Number { exponent: false };
            }
            _ if starts_name(b) => {
                self.member_starts();
                self.word.clear();
                self.word.push(b);
                self.lex = Lex::Word;
            }
            _ => self.out.push(b),
        }
    }

    /// Writes the waiting name and comma, now that `b` (not white space, not a
    /// comment) decides them.
    fn settle(&mut self, b: u8) {
        // A name called in a literal (`arrayOf(...)`, `np.array(...)`) makes what it
        // is given: the list that follows, without the name.
        if b == b'(' {
            self.name = None;
        }
        if self.brace.is_some_and(|br| br.first) {
            self.decide(b != b':');
        }
        if let Some(name) = self.name.take() {
            let literal: &[u8] = match &name[..] {
                _ if b == b':' => b"",
                b"null" | b"None" | b"undefined" | b"NaN" => b"null",
                b"true" | b"True" => b"true",
                b"false" | b"False" => b"false",
                _ => b"",
            };
            if literal.is_empty() {
                self.out.push(b'"');
                self.out.extend_from_slice(&name);
                self.out.push(b'"');
            } else {
                self.out.extend_from_slice(literal);
            }
        }
        if std::mem::take(&mut self.comma) && !matches!(b, b']' | b'}' | b')') {
            self.out.push(b',');
        }
    }

    /// Whether the string being read is written out.
    fn writes(&self) -> bool {
        self.in_literal() || self.code_string
    }

    fn string_byte(&mut self, mut q: Quoted, b: u8) {
        if q.escaped {
            q.escaped = false;
            if self.writes() {
                match b {
                    // JSON has no `\'`; a backslash before a line break joins lines.
                    b'\'' => self.out.push(b),
                    b'\n' => self.breaks += 1,
                    _ => self.out.extend_from_slice(&[b'\\', b]),
                }
            } else if b == b'\n' {
                self.out.push(b);
            }
            return self.lex = Lex::String(q);
        }
        if q.long {
            if b == q.quote {
                q.closing += 1;
                if q.closing == 3 {
                    return self.close_string();
                }
                return self.lex = Lex::String(q);
            }
            for _ in 0..std::mem::take(&mut q.closing) {
                self.content(q.quote);
            }
        } else if b == q.quote || (b == b'\n' && q.quote != b'`') {
            // A line break ends a broken one-line string: the damage stays on its line.
            self.close_string();
            if b == b'\n' {
                self.token_byte(b);
            }
            return;
        }
        if b == b'\\' {
            q.escaped = true;
        } else {
            self.content(b);
        }
        self.lex = Lex::String(q);
    }

    /// A character of a string's text.
    fn content(&mut self, b: u8) {
        if self.code_string {
            self.code_written += 1;
            if self.code_written > LONGEST_CODE_STRING {
                if b == b'\n' {
                    self.breaks += 1;
                }
                return;
            }
        }
        if !self.writes() {
            return;
        }
        match b {
            b'"' => self.out.extend_from_slice(b"\\\""),
            b'\n' => {
                self.out.extend_from_slice(b"\\n");
                self.breaks += 1;
            }
            b'\r' => self.out.extend_from_slice(b"\\r"),
            b'\t' => self.out.extend_from_slice(b"\\t"),
            0..0x20 => self.out.extend_from_slice(format!("\\u{b:04x}").as_bytes()),
            _ => self.out.push(b),
        }
    }

    fn close_string(&mut self) {
        self.lex = Lex::Normal;
        if std::mem::take(&mut self.code_string) {
            // Ended for good only by what follows.
            self.joinable = true;
            return;
        }
        if self.in_literal() {
            self.out.push(b'"');
        }
        self.owed += std::mem::take(&mut self.breaks);
    }

    /// A string of program text ends: `"}` after it, its line breaks owed.
    fn end_code_string(&mut self) {
        self.joinable = false;
        self.out.extend_from_slice(b"\"}");
        self.code_mark(b'"');
        self.owed += std::mem::take(&mut self.breaks);
    }

    /// The end of the input: the token under way ends.
    fn finish(&mut self) {
        // A space ends a name or a number and adds no line.
        self.byte(b' ');
        if let Lex::String(_) | Lex::Quotes { .. } = self.lex {
            self.close_string();
        }
        if self.joinable {
            self.end_code_string();
        }
        self.settle(b'\n');
        self.decide(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn json(source: &str) -> String {
        let mut out = String::new();
        Literals::new(source.as_bytes())
            .read_to_string(&mut out)
            .unwrap();
        out
    }

    /// Every JSON value out, strings of program text (`{"": "..."}`) included.
    fn all(source: &str) -> Vec<serde_json::Value> {
        let out = json(source);
        serde_json::Deserializer::from_str(&out)
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{e}: {out}"))
    }

    /// The literals out.
    fn values(source: &str) -> Vec<serde_json::Value> {
        all(source)
            .into_iter()
            .filter(|v| v.as_object().is_none_or(|o| !o.contains_key("")))
            .collect()
    }

    /// The strings of program text out.
    fn code_strings(source: &str) -> Vec<String> {
        all(source)
            .into_iter()
            .filter_map(|v| Some(v.as_object()?.get("")?.as_str()?.to_string()))
            .collect()
    }

    #[test]
    fn literals_become_json_and_lines_keep_their_numbers() {
        let js = "import x from 'y';\n// a [comment] = [1]\nexport const puzzles = {\n  easy: [ // first\n    [1, null, 'a\"b', `c\nd`],\n    [undefined, NaN, -1.5e+3,],\n  ],\n  /* [ */ hard: [],\n};\nif (a == [1]) { b = c[0]; }\n";
        let out = json(js);
        assert_eq!(out.matches('\n').count(), js.matches('\n').count(), "{out}");
        let v = values(js);
        assert_eq!(
            v,
            [serde_json::json!({
                "easy": [[1, null, "a\"b", "c\nd"], [null, null, -1.5e3]],
                "hard": [],
            })]
        );
        // The literal starts on the line it starts on in the source.
        let at = out.find("\"easy\"").unwrap();
        assert_eq!(out[..at].matches('\n').count(), 3);
    }

    #[test]
    fn python_lists_tuples_and_long_strings() {
        let py = "\"\"\"Doc: x = [not this]\nit's here\"\"\"\nPUZZLES = [\n    (\"53..\", '12'),  # one\n    ('''ab\nc''', None, True, False),\n]\ndef f():\n    return [1, 2]\nsolve([[0, 1]])\n";
        let v = values(py);
        assert_eq!(
            v,
            [
                serde_json::json!([["53..", "12"], ["ab\nc", null, true, false]]),
                serde_json::json!([1, 2]),
                serde_json::json!([[0, 1]]),
            ]
        );
    }

    #[test]
    fn c_family_lists_in_braces_and_their_array_types() {
        let c = "/* db */\n#define N 2\nunsigned int sudb[][4] = {\n\t{ 4, 0, 0, 1 },\n\t{ 0, 2, 0, 0 }\n};\n";
        let java = "int[][] a = new int[][] {{5, 3}, {'6', '.'}};\nchar[][] b = {{'5'}};\n";
        let go = "tests := []struct{ board [][]byte }{\n\t{board: [][]byte{{'5', '3'}, {'.', '9'}}},\n}\n";
        let rust = "let v = vec![(\"name\", [[1, 2], [3, 4]])];\nlet o = {};\nlet m = {\"k\": 1, x: {}};\n";
        use serde_json::json;
        assert_eq!(values(c), [json!([[4, 0, 0, 1], [0, 2, 0, 0]])]);
        assert_eq!(values(java), [json!([[5, 3], ["6", "."]]), json!([["5"]])]);
        // Go: the slice type's `[]` reads as an empty list; the board as lists.
        assert_eq!(values(go), [json!([]), json!([["5", "3"], [".", "9"]])]);
        assert_eq!(
            values(rust),
            [
                json!([["name", [[1, 2], [3, 4]]]]),
                json!({}),
                json!({"k": 1, "x": {}})
            ]
        );
    }

    /// Red-team findings: a puzzle in a string of program text (`HARD = "..."`, a call's
    /// argument, a tuple) was lost when the file was read in its literals; `#` was a
    /// comment in every language, `'` always a string (a Rust lifetime ate the line);
    /// a second document after a comment, or JSON Lines, were never opened; a bare CR
    /// was no line break; a long string's line breaks were held in memory.
    #[test]
    fn red_team_findings_on_program_source() {
        use serde_json::json;
        let py = "GRID = [[0, 1]]\nHARD = \"53..7\"\nsolve('6..195')\nT = (\n  \"a\",\n)\n";
        assert_eq!(code_strings(py), ["53..7", "6..195", "a"]);
        // Rows joined with `+` over lines (Java), or side by side (Python); `""`.
        let java = "int[][] P = parse(\n  \"005\"+\n  \"374\" + // row 2\n  \"900\");\ns = \"\"\nt = ('ab'\n 'cd')\n";
        assert_eq!(code_strings(java), ["005374", "900", "", "abcd"]);
        assert_eq!(json(java).matches('\n').count(), java.matches('\n').count());
        let rs =
            "static H: [&'static str; 1] = [\"p\"];\nlet r = r#\"q\"#;\nclass A { #x = [1]; }\n";
        assert_eq!(values(rs)[0], json!(["p"]));
        assert!(code_strings(rs).contains(&"q".to_string()));
        let docs = "# two\n[1]\n[2]\n{\"a\": 3}\n";
        assert_eq!(values(docs), [json!([1]), json!([2]), json!({"a": 3})]);
        // A `#` comment ended by its line break at once, in a file that reads as
        // JavaScript (found by the property test: a line was lost).
        assert_eq!(json("\n\n`\n`\n//\n[ #\n").matches('\n').count(), 6);
        let cr = "// c\rconst P = [\r1,\r2]\r";
        assert_eq!(values(cr), [json!([1, 2])]);
        assert_eq!(json(cr).matches('\n').count(), 4);
        // A million line breaks in a string: out in batches, every one counted.
        let long = format!("x = [`{}`, 5]\ny = [6]\n", "a\n".repeat(1_000_000));
        let mut reader = Literals::new(long.as_bytes());
        let (mut breaks, mut most) = (0, 0);
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = reader.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            breaks += buf[..n].iter().filter(|&&b| b == b'\n').count();
            most = most.max(reader.lexer.out.capacity());
        }
        assert_eq!(breaks, 1_000_002);
        assert!(most < 8 << 20, "{most}");
    }

    #[test]
    fn lists_made_by_calls() {
        let kt = "val B = arrayOf(\n  arrayOf(null, 3),\n  intArrayOf(4, 5),\n)\nval n = foo(1)\n";
        assert_eq!(values(kt), [serde_json::json!([[null, 3], [4, 5]])]);
    }

    #[test]
    fn names_that_are_not_values_become_strings() {
        assert_eq!(
            values("x = [easy, medium]; y = {a: b}"),
            [
                serde_json::json!(["easy", "medium"]),
                serde_json::json!({"a": "b"})
            ]
        );
    }

    fn value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (0u32..100).prop_map(Value::from),
            "[a-z0-9 .'\"\\\\/#\n]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,6}", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// A JSON value written into program source, as JSON or pretty-printed with
        /// trailing commas and comments, reads back the same, its lines kept.
        #[test]
        fn a_json_value_in_source_reads_back(v in value(), python in any::<bool>()) {
            let text = serde_json::to_string_pretty(&v).unwrap();
            // Trailing commas and a comment after each line that ends a member.
            let relaxed: String = text
                .lines()
                .map(|l| match l.ends_with(['}', ']', '"']) || l.ends_with(|c: char| c.is_ascii_alphanumeric()) {
                    true if python => format!("{l},  # note\n"),
                    true => format!("{l}, // note\n"),
                    false => format!("{l}\n"),
                })
                .collect();
            let relaxed = relaxed.trim_end().trim_end_matches(|c| c != ',').trim_end_matches(',');
            for literal in [text.as_str(), relaxed] {
                let source = format!("import x\nconst data = {literal};\nf(data)\n");
                let out = json(&source);
                prop_assert_eq!(out.matches('\n').count(), source.matches('\n').count());
                if v.is_array() || v.is_object() {
                    prop_assert_eq!(values(&source), vec![v.clone()]);
                }
            }
        }

        /// Any text: no panic, and never a line more or less.
        #[test]
        fn any_source_keeps_its_lines(text in "([a-z =\\[\\]{}(),:;'\"`#/*\\\\.0-9-]{0,30}\n){0,20}") {
            let out = json(&text);
            prop_assert_eq!(out.matches('\n').count(), text.matches('\n').count());
        }
    }

    #[test]
    fn code_that_is_not_a_literal_is_passed_over() {
        for code in [
            "if (x <= [1]) {}\n",
            "a[0] = b;\nfor (const r of rows) { r.fill(0); }\n",
            "s = 'x = [1]'\n",
            "m = /[a-z]/;\n",
        ] {
            assert_eq!(values(code), [] as [serde_json::Value; 0], "{code}");
        }
    }
}
