//! Compressed inputs, recognized by their first bytes and read as a stream: gzip, zstd,
//! xz and bzip2.

use std::io::{self, BufRead, Read};

/// A compression a source can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Gzip,
    Zstd,
    Xz,
    Bzip2,
}

impl Compression {
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
            Compression::Bzip2 => "bzip2",
        }
    }

    /// The compression whose magic bytes start `head`.
    pub fn sniff(head: &[u8]) -> Option<Compression> {
        match head {
            [0x1f, 0x8b, ..] => Some(Compression::Gzip),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Compression::Xz),
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Some(Compression::Bzip2),
            _ => None,
        }
    }
}

/// `input` decompressed when its first bytes say it is compressed, else as it is.
pub fn decompress<'a, R: BufRead + Send + 'a>(
    mut input: R,
) -> io::Result<(Box<dyn Read + Send + 'a>, Option<Compression>)> {
    let head = loop {
        match input.fill_buf() {
            Ok(h) => break h,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    };
    let found = Compression::sniff(head);
    let reader: Box<dyn Read + Send> = match found {
        None => Box::new(input),
        // Multi-member decoders: `cat a.gz b.gz` is one valid stream.
        Some(Compression::Gzip) => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        Some(Compression::Zstd) => Box::new(zstd::stream::read::Decoder::with_buffer(input)?),
        Some(Compression::Xz) => Box::new(xz2::bufread::XzDecoder::new_multi_decoder(input)),
        Some(Compression::Bzip2) => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
    };
    Ok((reader, found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn every_compression_reads_back() {
        let text =
            b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
        let gz = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        let zst = zstd::encode_all(&text[..], 3).unwrap();
        let xz = {
            let mut e = xz2::write::XzEncoder::new(Vec::new(), 6);
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        let bz = {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        for (bytes, want) in [
            (gz, Some(Compression::Gzip)),
            (zst, Some(Compression::Zstd)),
            (xz, Some(Compression::Xz)),
            (bz, Some(Compression::Bzip2)),
            (text.to_vec(), None),
        ] {
            let (mut r, found) = decompress(&bytes[..]).unwrap();
            assert_eq!(found, want);
            let mut out = Vec::new();
            r.read_to_end(&mut out).unwrap();
            assert_eq!(out, text);
        }
    }
}
