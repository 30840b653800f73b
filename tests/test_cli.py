"""The command line: ``python -m extractor extract|evaluate``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from extractor.cli import main

MAIN = Path(__file__).resolve().parents[1]

POSTS = [
    ("Tomatoes in pots", "Cherry tomatoes grow well in deep pots."),
    ("Winter beans", "Broad beans survive a mild winter outside."),
    ("Herb spiral", "A herb spiral packs many plants into one bed."),
]


def blog_page(title, body, comment=None):
    comments = f'<div class="comment"><p>{comment}</p></div>' if comment else ""
    return f"""<html><body><div id="header"><h1>Gardening Notes</h1></div>
<ul id="nav"><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul>
<div id="post"><h2>{title}</h2><p>{body}</p></div>
<div id="comments"><h3>Comments</h3>{comments}</div>
<div id="footer"><p>Copyright Gardening Notes</p></div></body></html>"""


def run_cli(*args, cwd=MAIN):
    return subprocess.run(
        [sys.executable, "-m", "extractor", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def read_jsonl(path):
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def site_files(tmp_path):
    files = []
    for i, (title, body) in enumerate(POSTS):
        path = tmp_path / f"page{i}.html"
        path.write_text(blog_page(title, body, "First!" if i == 0 else None), encoding="utf-8")
        files.append(path)
    return files


@pytest.fixture(scope="module")
def small_corpus(corpus_root, tmp_path_factory):
    """A corpus root holding one WordPress and one Dragnet site (symlinks to the shared corpus)."""
    root = tmp_path_factory.mktemp("corpus")
    for src, site in [("wordpress", "tt21"), ("dragnet", "scotthyoung.com")]:
        (root / src).mkdir()
        (root / src / site).symlink_to(corpus_root / src / site, target_is_directory=True)
    return root


# ---------------------------------------------------------------- extract FILE...


def test_extract_files_writes_one_line_per_file(site_files, tmp_path):
    out = tmp_path / "out.jsonl"
    run = run_cli("extract", *site_files, "--out", out)
    assert run.returncode == 0, run.stderr
    rows = read_jsonl(out)
    assert [r["file"] for r in rows] == [str(f) for f in site_files]
    keys = {"file", "post", "comments", "method", "confidence"}  # method, confidence: issue 20
    assert all(set(r) - {"comment_section"} == keys for r in rows)


def test_extract_writes_the_posts_author_and_date_from_its_byline(tmp_path):
    files = []
    for i, (title, body) in enumerate(POSTS):
        page = blog_page(title, f"{body} {body} {body}").replace(
            f"<h2>{title}</h2>", f"<h2>{title}</h2><div class=meta>Posted on May {i + 2}, 2024 By Ann Lee</div>"
        )
        files.append(tmp_path / f"page{i}.html")
        files[-1].write_text(page, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert run_cli("extract", *files, "--out", out).returncode == 0
    rows = read_jsonl(out)
    assert [(r["post_author"], r["published"]) for r in rows] == [("Ann Lee", f"2024-05-0{i + 2}") for i in range(3)]
    paper = run_cli("extract", *files, "--preset", "paper")
    assert paper.returncode == 0 and not any("post_author" in json.loads(line) for line in paper.stdout.splitlines())


def test_extract_files_separates_post_and_comments(site_files, tmp_path):
    out = tmp_path / "out.jsonl"
    assert run_cli("extract", *site_files, "--out", out).returncode == 0
    rows = read_jsonl(out)
    assert [r["post"] for r in rows] == [f"{t}\n{b}" for t, b in POSTS]
    assert [r["comments"] for r in rows] == [["First!"], [], []]


def test_extract_files_keeps_paths_as_given(site_files):
    run = run_cli("extract", *(f.name for f in site_files), cwd=site_files[0].parent)
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["file"] for r in rows] == ["page0.html", "page1.html", "page2.html"]


def test_extract_to_stdout_without_out(site_files, capsys):
    assert main(["extract", *map(str, site_files)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == len(site_files)


def test_extract_unicode_is_written_as_is(tmp_path, capsys):
    files = []
    for i in range(2):
        path = tmp_path / f"ja{i}.html"
        path.write_bytes(f"<html><body><div id=n>ナビ</div><p>日本語の記事 {i}</p></body></html>".encode())
        files.append(str(path))
    assert main(["extract", *files]) == 0
    out = capsys.readouterr().out
    assert "日本語の記事 0" in out


def test_extract_bad_file_reports_on_stderr_and_still_writes_its_line(site_files, tmp_path, capsys):
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert main(["extract", *map(str, site_files), str(empty)]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert rows[-1] == {"file": str(empty), "post": "", "comments": []}
    assert "empty.html" in captured.err and "empty page" in captured.err
    assert rows[0]["post"].startswith("Tomatoes in pots")


def test_extract_one_file_warns_on_stderr(site_files, capsys):
    assert main(["extract", str(site_files[0])]) == 0
    assert "separation impossible" in capsys.readouterr().err


def test_extract_paper_preset(site_files, capsys):
    assert main(["extract", "--preset", "paper", *map(str, site_files)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["post"] for r in rows] == [f"{t}\n{b}" for t, b in POSTS]


# ---------------------------------------------------------------- extract --corpus


def test_extract_corpus_one_line_per_page_relative_to_root(small_corpus, tmp_path):
    out = tmp_path / "out.jsonl"
    run = run_cli("extract", "--corpus", small_corpus, "--out", out, "--jobs", "2")
    assert run.returncode == 0, run.stderr
    rows = read_jsonl(out)
    files = [r["file"] for r in rows]
    expected = sorted(
        f"{p.parent.parent.parent.name}/{p.parent.parent.name}/pages/{p.name}"
        for p in small_corpus.glob("*/*/pages/*.html")
    )
    assert sorted(files) == expected
    assert len(files) == len(set(files))
    keys = {"file", "post", "comments", "method", "confidence"}  # method, confidence: issue 20
    assert all(set(r) - {"comment_section", "published", "post_author"} == keys for r in rows)
    # the comment section as shown, with the author and date lines the records keep apart
    shown = [r for r in rows if "comment_section" in r]
    assert shown and all(r["comments"] and r["comment_section"] for r in shown)
    assert all(all(c.splitlines()[0] in r["comment_section"] for c in r["comments"] if c) for r in shown)


def test_extract_corpus_matches_truth_files(small_corpus, tmp_path):
    out = tmp_path / "out.jsonl"
    assert main(["extract", "--corpus", str(small_corpus), "--out", str(out), "--jobs", "1"]) == 0
    rows = {r["file"]: r for r in read_jsonl(out)}
    truth = (small_corpus / "wordpress" / "tt21" / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    for line in truth:
        t = json.loads(line)
        row = rows[f"wordpress/tt21/{t['file']}"]
        title = t["post"].split("\n", 1)[0]
        assert title in row["post"]


def test_extract_corpus_site_filter(small_corpus, capsys):
    assert main(["extract", "--corpus", str(small_corpus), "--site", "scotthyoung.com", "--jobs", "1"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows
    assert {r["file"].split("/")[1] for r in rows} == {"scotthyoung.com"}


# ---------------------------------------------------------------- evaluate


@pytest.fixture(scope="module")
def evaluate_run(small_corpus):
    run = run_cli("evaluate", "--corpus", small_corpus, "--jobs", "2")
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_evaluate_prints_a_row_per_site(evaluate_run):
    assert any(line.startswith("wordpress/tt21 ") for line in evaluate_run)
    assert any(line.startswith("dragnet/scotthyoung.com ") for line in evaluate_run)


def test_evaluate_prints_macro_lines(evaluate_run):
    for prefix in ("dragnet MACRO (1 sites", "wordpress MACRO (1 sites", "ALL MACRO (2 sites"):
        assert any(line.startswith(prefix) for line in evaluate_run), prefix


def test_evaluate_ends_with_a_summary_line(evaluate_run):
    last = evaluate_run[-1]
    assert last.startswith("SUMMARY")
    assert "macro post F1" in last and "comment F1" in last
    assert "2 sites" in last


def test_evaluate_as_crawl_scores_profile_extraction(small_corpus, tmp_path, capsys):
    # first half of each site as a set, the rest one page at a time with the learned profile
    preds = tmp_path / "preds.jsonl"
    out = tmp_path / "report.json"
    args = ["evaluate", "--corpus", str(small_corpus), "--source", "wordpress", "--jobs", "1"]
    assert main([*args, "--as-crawl", "--json", str(out), "--predictions", str(preds)]) == 0
    rows = read_jsonl(preds)
    assert len(rows) == 30
    site = json.loads(out.read_text())["sites"][0]
    assert site["site"] == "tt21"
    assert site["post_f1"] >= 0.97 and site["com_f1"] >= 0.93
    # the flag's old name still works, says so in one line, and predicts the same
    capsys.readouterr()
    old = tmp_path / "old.jsonl"
    assert main([*args, "--pipeline", "--predictions", str(old)]) == 0
    assert capsys.readouterr().err.splitlines() == ["evaluate: --pipeline is deprecated, use --as-crawl"]
    assert old.read_bytes() == preds.read_bytes()


def test_evaluate_json_and_source_filter(small_corpus, tmp_path, capsys):
    out = tmp_path / "report.json"
    assert main(["evaluate", "--corpus", str(small_corpus), "--source", "wordpress", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert [s["site"] for s in report["sites"]] == ["tt21"]
    assert set(report) >= {"sites", "sources", "macro", "micro"}
    assert 0.0 <= report["macro"]["post_f1"] <= 1.0
    assert capsys.readouterr().out.splitlines()[-1].startswith("SUMMARY")


# ---------------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "required"),
        (["bogus"], "invalid choice"),
        (["extract"], "FILE"),
        (["evaluate"], "--corpus"),
        (["extract", "--preset", "nope", "x.html"], "invalid choice"),
        (["evaluate", "--corpus", "x", "--jobs", "many"], "invalid int"),
        (["extract", "--no-such-flag"], "unrecognized arguments"),
    ],
    ids=["no-command", "bad-command", "extract-nothing", "evaluate-no-corpus", "bad-preset", "bad-jobs", "bad-flag"],
)
def test_bad_arguments_exit_2_with_a_message(args, message):
    run = run_cli(*args)
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_evaluate_empty_corpus_root_exits_2(tmp_path):
    run = run_cli("evaluate", "--corpus", tmp_path)
    assert run.returncode == 2
    assert "no sites" in run.stderr


def test_missing_corpus_root_exits_2(tmp_path):
    run = run_cli("extract", "--corpus", tmp_path / "missing")
    assert run.returncode == 2
    assert "Traceback" not in run.stderr


def test_missing_input_file_exits_2(tmp_path):
    run = run_cli("extract", tmp_path / "missing.html")
    assert run.returncode == 2
    assert "missing.html" in run.stderr
    assert "Traceback" not in run.stderr
