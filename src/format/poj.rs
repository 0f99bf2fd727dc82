//! POJ 3074: one 81-character puzzle a line; a line `end` ends the input. Read by the
//! `line` reader without suffixes, with the judges' cells ([`super::line`]).

#[cfg(test)]
mod tests {
    use crate::format::{Format, read_all};

    /// The sample input of POJ 3074.
    const SAMPLE: &str = "\
.2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.
......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.
end
";

    #[test]
    fn reads_the_sample_and_stops_at_end() {
        let input = format!("{SAMPLE}{}\n", SAMPLE.lines().next().unwrap());
        let recs = read_all(Format::Poj, input.as_bytes());
        assert_eq!(recs.len(), 2);
        assert_eq!((recs[1].number, recs[1].line), (2, 2));
        let first = recs[0].body.result().as_ref().unwrap();
        assert_eq!(first.board.to_line(), SAMPLE.lines().next().unwrap());
        assert_eq!((first.board.clues(), first.expected.clone()), (36, None));
        assert_eq!(
            crate::format::detect(SAMPLE.as_bytes(), &Default::default())
                .unwrap()
                .format,
            Format::Poj
        );
    }

    #[test]
    fn takes_crlf_blank_lines_zeros_and_no_end() {
        let zeros = SAMPLE.lines().nth(1).unwrap().replace('.', "0");
        let input = format!("\r\n{zeros}\r\n\r\n  end  \r\nrubbish\r\n");
        let recs = read_all(Format::Poj, input.as_bytes());
        assert_eq!(recs.len(), 1);
        assert_eq!((recs[0].number, recs[0].line), (1, 2));
        let recs = read_all(Format::Poj, SAMPLE.replace("end\n", "").as_bytes());
        assert_eq!(recs.len(), 2);
        assert!(read_all(Format::Poj, b"end").is_empty());
    }

    #[test]
    fn reports_bad_lines_and_ignores_suffixes() {
        let first = SAMPLE.lines().next().unwrap();
        let input = format!("{first}:1:junk\n{}\n{}x\nend\n", &first[..40], &first[..80]);
        let recs = read_all(Format::Poj, input.as_bytes());
        assert!(recs[0].body.result().as_ref().unwrap().expected.is_none());
        let e1 = recs[1].body.result().clone().unwrap_err();
        assert_eq!((e1.line, e1.column), (2, Some(41)));
        let e2 = recs[2].body.result().clone().unwrap_err();
        assert_eq!(
            (e2.line, e2.column, e2.message.starts_with("'x'")),
            (3, Some(81), true)
        );
    }
}
