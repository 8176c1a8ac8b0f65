import pathlib

import pytest

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


@pytest.fixture(scope="session")
def data_dir():
    return DATA
