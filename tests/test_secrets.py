"""Passwords never shown: text.mask_secrets on the URLs an attack pass printed (a password holding # / ? quotes or a
space: the URL does not parse, yet a message quotes it)."""
import pytest

from rag_core.text import mask_secrets

SECRET = "SECRET"


@pytest.mark.parametrize("url", ["postgresql://u:a#SECRET@127.0.0.1:1/db", "postgresql://u:a/b?cSECRET@127.0.0.1:1/db",
                                 "postgresql://u:pa'SECRET@127.0.0.1/db", 'postgresql://u:pa"SECRET@h/db',
                                 "http://user:a#SECRETPW@127.0.0.1:1", "http://user:a/SECRET@host:8080/v1"])
def test_a_password_with_url_characters_is_masked_in_any_message(url):
    said = mask_secrets(f"The server URL {url!r} is not a valid address (check the host).")
    assert SECRET not in said and ":***@" in said


def test_a_password_with_a_space_is_masked_where_the_url_is_known():
    url = "postgresql://u:pa ssSECRET@127.0.0.1/db"
    assert SECRET not in mask_secrets(f"connection to {url} failed: password 'pa ssSECRET' refused", url)


def test_an_address_and_a_mail_address_are_left_readable():
    text = "no server at http://127.0.0.1:11434/api, write to ops@example.org"
    assert mask_secrets(text) == text
    assert mask_secrets("postgresql://user:password@host:5432/database") == "postgresql://user:password@host:5432/database"
