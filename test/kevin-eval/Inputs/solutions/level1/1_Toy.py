class ModelNew:
    # speed: 1.5
    pass
